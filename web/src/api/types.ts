// The console's view of the APIs it calls, derived from the server's own zod schemas: the Studio
// contract (src/studio/contract.ts) and REST's answers for sign-in and analytics
// (src/rest/schemas.ts). `import type` only: the schemas' types reach the compiler, no zod
// reaches the bundle, and a field the server renames fails `tsc -p web` instead of the screen.
import type { z } from 'zod';
import type * as rest from '../../../src/rest/schemas.ts';
import type * as studio from '../../../src/studio/contract.ts';

/** What JSON makes of a value: a Date is written as its ISO string. */
type Json<T> = T extends Date ? string : T extends readonly (infer U)[] ? Json<U>[] : T extends object ? { [K in keyof T]: Json<T[K]> } : T;
/** An answer's `data` as the client receives it. */
export type Answer<S extends z.ZodType> = Json<z.output<S>>;
/** A request body as the client may send it (defaults and optional fields left out). */
type Body<S extends z.ZodType> = z.input<S>;

export type Detail = Answer<typeof studio.refusalDetailSchema>;

// Videos
export type Video = Answer<typeof studio.videoSchema>;
export type VideoPage = Answer<typeof studio.videoPageSchema>;
export type VideoUsage = Answer<typeof studio.videoUsageSchema>;
export type NewVideo = Body<typeof studio.newVideoSchema>;
export type VideoPatch = Body<typeof studio.videoPatchSchema>;
export type VideoLookup = Answer<typeof studio.videoLookupSchema>;
export type VideoLookupItem = VideoLookup['items'][number];

// Channels and what hangs off them
export type Channel = Answer<typeof studio.channelResourceSchema>;
export type ChannelPage = Answer<typeof studio.channelPageSchema>;
/** A channel's own fields as its form edits them (a create's body, a PATCH's); a category is required when sent. */
export type ChannelFields = Pick<Channel, 'name' | 'url' | 'timezone' | 'pictureUrl' | 'description' | 'playLiveFirst' | 'keepGuideOpened'> & {
  categoryId: number | null;
  languageId: number | null;
};
export type VideoList = Answer<typeof studio.videoListSchema>;
export type Vast = Answer<typeof studio.vastResourceSchema>;
export type VastBody = Body<typeof studio.vastBodySchema>;
export type LiveStream = Answer<typeof studio.liveStreamResourceSchema>;
export type LiveStreamBody = Body<typeof studio.liveStreamSchema>;
export type Category = Answer<typeof studio.categoryResourceSchema>;
export type Language = Answer<typeof studio.languageResourceSchema>;

// Schedules
export type Block = Answer<typeof studio.blockSchema>;
export type NewBlock = Body<typeof studio.newBlockSchema>;
export type BlockPatch = Body<typeof studio.blockPatchSchema>;
export type Day = Answer<typeof studio.daySchema>;
export type DayEntry = Day['entries'][number];
export type Guide = Answer<typeof studio.guideSchema>;
export type GuideRow = Guide['items'][number];

// Apps and the account
export type App = Answer<typeof studio.appResourceSchema>;
export type StoreProduct = App['storeProducts'][number];
export type AppChannel = App['channels'][number];
export type AppToken = Answer<typeof studio.appTokenSchema>;
export type CreatedToken = Answer<typeof studio.createdTokenSchema>;

// Onboarding: invites and sign-up
export type Invite = Answer<typeof studio.inviteSchema>;
export type CreatedInvite = Answer<typeof studio.createdInviteSchema>;
export type NewInvite = Body<typeof studio.newInviteSchema>;
export type NewOwner = Body<typeof studio.newOwnerSchema>;
export type SignupMode = Answer<typeof studio.signupModeSchema>['signup'];

// Catalog file and audit
export type ImportAnswer = Answer<typeof studio.importAnswerSchema>;
export type AuditPage = Answer<typeof studio.auditPageSchema>;
export type AuditEntry = AuditPage['items'][number];

// REST: sign-in and analytics
export type Login = Answer<typeof rest.loginSchema>;
export type Summary = Answer<typeof rest.summarySchema>;
export type Sessions = Answer<typeof rest.sessionsSchema>;
export type Concurrency = Answer<typeof rest.concurrencySchema>;
export type Programmes = Answer<typeof rest.programmesSchema>;
export type Curve = Answer<typeof rest.curveSchema>;

// On air (src/schedules/on-air-timeline.ts): the timeline of a span and what blocks lose to what
export type OnAir = Answer<typeof studio.onAirSchema>;
export type OnAirSegment = OnAir['segments'][number];
export type Preempted = OnAir['preempted'][number];

// Programming tools (time slots, filler, templates)
export type Slot = Answer<typeof studio.slotSchema>;
export type SlotPlan = Answer<typeof studio.slotPlanSchema>;
export type FillerList = Answer<typeof studio.fillerSchema>;
export type Fallback = Answer<typeof studio.fallbackSchema>;
export type ProgrammingState = Answer<typeof studio.programmingStateSchema>;
export type ProgrammingPreview = Answer<typeof studio.programmingPreviewSchema>;
export type ProgrammingWritten = Answer<typeof studio.programmingWrittenSchema>;
export type GenerateBody = Body<typeof studio.generateBodySchema>;
export type TemplateBody = Body<typeof studio.templateBodySchema>;

// Collections (named sets of videos that slots play)
export type Collection = Answer<typeof studio.collectionSchema>;
export type CollectionBody = Body<typeof studio.collectionBodySchema>;
export type CollectionRules = NonNullable<Collection['rules']>;

// XMLTV guide keys and what is on air (Watch)
export type EpgKey = Answer<typeof studio.epgKeySchema>;
export type CreatedEpgKey = Answer<typeof studio.createdEpgKeySchema>;
export type NowOnAir = Answer<typeof studio.nowOnAirSchema>;
