// The console's screens, in navigation order. Each screen module owns its own files and is
// loaded when first opened (one chunk per screen: signing in does not download the charts).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface Screen {
  id: string;
  label: string;
  component: LazyExoticComponent<ComponentType<{ rest: string[] }>>;
}

type Props = { rest: string[] };
const screen = <K extends string>(load: () => Promise<Record<K, ComponentType<Props>>>, name: K) => lazy(() => load().then((module) => ({ default: module[name] })));

export const SCREENS: readonly Screen[] = [
  { id: 'channels', label: 'Channels', component: screen(() => import('./channels/ChannelsScreen.tsx'), 'ChannelsScreen') },
  { id: 'videos', label: 'Videos', component: screen(() => import('./videos/VideosScreen.tsx'), 'VideosScreen') },
  { id: 'schedule', label: 'Schedule', component: screen(() => import('./schedule/ScheduleScreen.tsx'), 'ScheduleScreen') },
  { id: 'programming', label: 'Programming', component: screen(() => import('./schedule/ProgrammingScreen.tsx'), 'ProgrammingScreen') },
  { id: 'collections', label: 'Collections', component: screen(() => import('./collections/CollectionsScreen.tsx'), 'CollectionsScreen') },
  { id: 'live-streams', label: 'Live streams', component: screen(() => import('./schedule/LiveStreamsScreen.tsx'), 'LiveStreamsScreen') },
  { id: 'watch', label: 'Watch', component: screen(() => import('./watch/WatchScreen.tsx'), 'WatchScreen') },
  { id: 'apps', label: 'Apps', component: screen(() => import('./apps/AppsScreen.tsx'), 'AppsScreen') },
  { id: 'analytics', label: 'Analytics', component: screen(() => import('./analytics/AnalyticsScreen.tsx'), 'AnalyticsScreen') },
  { id: 'catalog', label: 'Import & export', component: screen(() => import('./catalog/CatalogScreen.tsx'), 'CatalogScreen') },
  { id: 'audit', label: 'Audit log', component: screen(() => import('./catalog/AuditScreen.tsx'), 'AuditScreen') },
  { id: 'invites', label: 'Invites', component: screen(() => import('./invites/InvitesScreen.tsx'), 'InvitesScreen') },
];
