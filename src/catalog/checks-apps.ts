// Cross-entity rules for apps and entitlements (see checks.ts for the conventions).
import type { Catalog, CatalogApp } from './format.ts';
import type { Errors } from './checks.ts';
import { eachDuplicate, untouched, type ExistingCatalog, type Resolver } from './resolve.ts';

function checkAppProducts(app: CatalogApp, p: string, errors: Errors): void {
  eachDuplicate(
    app.storeProducts,
    (s) => `${s.storePlatform}\u0000${s.productId}`,
    (s, i) => errors.push(`${p}.storeProducts[${i}].productId: duplicate product ${JSON.stringify(s.productId)} for store ${s.storePlatform}`),
  );
  eachDuplicate(
    app.vodPpv.storeProducts,
    (s) => s.storePlatform,
    (s, i) => errors.push(`${p}.vodPpv.storeProducts[${i}].storePlatform: more than one PPV product for store ${s.storePlatform}`),
  );
}

function checkAppChannels(app: CatalogApp, p: string, resolve: Resolver, errors: Errors): void {
  app.channels.forEach((c, i) => {
    const owner = resolve.channelOwner(c.channelId);
    const path = `${p}.channels[${i}].channelId`;
    if (owner === undefined) errors.push(`${path}: unknown channel ${c.channelId}`);
    else if (owner !== app.ownerId) errors.push(`${path}: channel ${c.channelId} is not owned by account ${app.ownerId}`);
  });
  eachDuplicate(
    app.channels,
    (c) => String(c.channelId),
    (c, i) => errors.push(`${p}.channels[${i}].channelId: duplicate channel ${c.channelId}`),
  );
  // A TV app's guide shows channels by number, like a cable line-up: one number, one channel.
  const numbered = app.channels.map((c, i) => ({ number: c.channelNumber?.trim() ?? '', channelId: c.channelId, i })).filter((c) => c.number !== '');
  eachDuplicate(
    numbered,
    (c) => c.number,
    (c, _, first) => errors.push(`${p}.channels[${c.i}].channelNumber: number ${JSON.stringify(c.number)} is already channel ${numbered[first]!.channelId}'s in this app`),
  );
}

function checkOnePerPlatform(catalog: Catalog, existing: ExistingCatalog, errors: Errors): void {
  const key = (a: { ownerId: number; platform: string }): string => `${a.ownerId}\u0000${a.platform}`;
  const taken = new Map(untouched(existing.apps, catalog.apps).map((a) => [key(a), a.id]));
  eachDuplicate(catalog.apps, key, (a, i) => errors.push(`apps[${i}].platform: owner ${a.ownerId} already has a ${a.platform} app in this file`));
  catalog.apps.forEach((a, i) => {
    const holder = taken.get(key(a));
    if (holder !== undefined) errors.push(`apps[${i}].platform: owner ${a.ownerId} already has ${a.platform} app ${holder}`);
  });
}

export function checkApps(catalog: Catalog, existing: ExistingCatalog, resolve: Resolver, errors: Errors): void {
  catalog.apps.forEach((a, i) => {
    const p = `apps[${i}]`;
    if (!resolve.account(a.ownerId)) errors.push(`${p}.ownerId: unknown account ${a.ownerId}`);
    checkAppProducts(a, p, errors);
    checkAppChannels(a, p, resolve, errors);
  });
  checkOnePerPlatform(catalog, existing, errors);
}

interface Holder {
  appId: number;
  viewerId: number | null;
}

function checkHolder(e: Holder, p: string, resolve: Resolver, errors: Errors): void {
  if (!resolve.app(e.appId)) errors.push(`${p}.appId: unknown app ${e.appId}`);
  if (e.viewerId !== null && !resolve.account(e.viewerId)) errors.push(`${p}.viewerId: unknown account ${e.viewerId}`);
}

export function checkEntitlements(catalog: Catalog, resolve: Resolver, errors: Errors): void {
  const { subscriptions, ppvUnlocks } = catalog.entitlements;
  subscriptions.forEach((s, i) => checkHolder(s, `entitlements.subscriptions[${i}]`, resolve, errors));
  eachDuplicate(
    subscriptions,
    (s) => `${s.appId}\u0000${s.storePlatform}\u0000${s.originalTransactionId}`,
    (s, i) =>
      errors.push(
        `entitlements.subscriptions[${i}].originalTransactionId: duplicate transaction ${JSON.stringify(s.originalTransactionId)} for app ${s.appId} on ${s.storePlatform}`,
      ),
  );
  ppvUnlocks.forEach((u, i) => {
    const p = `entitlements.ppvUnlocks[${i}]`;
    checkHolder(u, p, resolve, errors);
    if (!resolve.video(u.videoId)) errors.push(`${p}.videoId: unknown video ${u.videoId}`);
    if (u.channelId !== null && resolve.channelOwner(u.channelId) === undefined) errors.push(`${p}.channelId: unknown channel ${u.channelId}`);
  });
  eachDuplicate(
    ppvUnlocks,
    (u) => `${u.appId}\u0000${u.storePlatform}\u0000${u.transactionId}`,
    (u, i) => errors.push(`entitlements.ppvUnlocks[${i}].transactionId: duplicate transaction ${JSON.stringify(u.transactionId)} for app ${u.appId} on ${u.storePlatform}`),
  );
}
