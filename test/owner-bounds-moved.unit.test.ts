// Which owner bounds a write counts (src/catalog/owner-bounds.ts boundsMovedBy): what its
// changes can have grown, every bound for anything not known.
import { describe, expect, it } from 'vitest';
import { boundsMovedBy, boundsMovedByAll } from '../src/catalog/owner-bounds.ts';

describe('boundsMovedBy', () => {
  it('a video write counts videos, list entries (renditions) and text', () => {
    expect(boundsMovedBy('update', 'videos/7')).toEqual(['videos', 'listEntries', 'textBytes']);
  });

  it('a channel PATCH counts its own fields; a new channel may bring its children', () => {
    expect(boundsMovedBy('update', 'channels/3')).toEqual(['channels', 'textBytes']);
    expect(boundsMovedBy('create', 'channels/3')).toEqual(['channels', 'scheduleBlocks', 'listEntries', 'textBytes']);
    expect(boundsMovedBy('update', 'channels/3/library')).toEqual(['listEntries']);
    expect(boundsMovedBy('create', 'channels/3/schedules/9')).toEqual(['scheduleBlocks', 'listEntries']);
    expect(boundsMovedBy('update', 'channels/3/password')).toEqual([]);
  });

  it('images for branding and apps; nothing for tokens and keys; everything for the unknown', () => {
    expect(boundsMovedBy('update', 'branding')).toEqual(['imageBytes']);
    expect(boundsMovedBy('update', 'apps/ios')).toEqual(['listEntries', 'imageBytes']);
    expect(boundsMovedBy('create', 'apps/ios/epg-key')).toEqual([]);
    expect(boundsMovedBy('create', 'app-tokens/4')).toEqual([]);
    expect(boundsMovedBy('update', 'something-new/1')).toHaveLength(6);
  });

  it('deletes move nothing; the union keeps the bounds order', () => {
    expect(boundsMovedByAll([{ action: 'delete', resource: 'videos/1' }])).toEqual([]);
    expect(
      boundsMovedByAll([
        { action: 'update', resource: 'branding' },
        { action: 'update', resource: 'channels/1/library' },
      ]),
    ).toEqual(['listEntries', 'imageBytes']);
  });
});
