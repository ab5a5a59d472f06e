// The console's screens, in navigation order. Each screen module owns its own files.
import type { ComponentType } from 'react';
import { AnalyticsScreen } from './analytics/AnalyticsScreen.tsx';
import { AppsScreen } from './apps/AppsScreen.tsx';
import { AuditScreen } from './catalog/AuditScreen.tsx';
import { CatalogScreen } from './catalog/CatalogScreen.tsx';
import { ChannelsScreen } from './channels/ChannelsScreen.tsx';
import { LiveStreamsScreen } from './schedule/LiveStreamsScreen.tsx';
import { ScheduleScreen } from './schedule/ScheduleScreen.tsx';
import { VideosScreen } from './videos/VideosScreen.tsx';

export interface Screen {
  id: string;
  label: string;
  component: ComponentType<{ rest: string[] }>;
}

export const SCREENS: readonly Screen[] = [
  { id: 'channels', label: 'Channels', component: ChannelsScreen },
  { id: 'videos', label: 'Videos', component: VideosScreen },
  { id: 'schedule', label: 'Schedule', component: ScheduleScreen },
  { id: 'live-streams', label: 'Live streams', component: LiveStreamsScreen },
  { id: 'apps', label: 'Apps', component: AppsScreen },
  { id: 'analytics', label: 'Analytics', component: AnalyticsScreen },
  { id: 'catalog', label: 'Import & export', component: CatalogScreen },
  { id: 'audit', label: 'Audit log', component: AuditScreen },
];
