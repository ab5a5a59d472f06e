// The documents of the HDHomeRun tuner Plex, Jellyfin, Emby and Channels DVR read (docs/linear.md:
// The tuner), with the fields Tunarr and ErsatzTV serve: discover.json, lineup.json,
// lineup_status.json and device.xml. One tuner per live key: its DeviceID (8 hex digits) and UPnP
// UDN are derived from the key, so a key always shows as the same device and two keys never as
// one. Lineup URLs carry no query string (Plex drops them). Pure: no I/O.
import { createHash } from 'node:crypto';
import { xmlText } from '../presenters/xmltv.ts';
import type { LineupChannel } from './types.ts';

export interface TunerDevice {
  /** The tuner's absolute base URL: `<public base>/hdhr/{key}`. */
  baseUrl: string;
  /** The name media servers show. */
  friendlyName: string;
  tunerCount: number;
  /** The live key: DeviceID and UDN derive from it. */
  key: string;
}

const digest = (key: string) => createHash('sha256').update(`channelnet hdhr ${key}`).digest('hex');

/** 8 upper-case hex digits, stable per key. */
export const deviceId = (key: string): string => digest(key).slice(0, 8).toUpperCase();

function udn(key: string): string {
  const h = digest(key);
  return `uuid:${h.slice(8, 16)}-${h.slice(16, 20)}-${h.slice(20, 24)}-${h.slice(24, 28)}-${h.slice(28, 40)}`;
}

export function discoverDocument(device: TunerDevice) {
  return {
    FriendlyName: device.friendlyName,
    Manufacturer: 'channelnet - Silicondust',
    ManufacturerURL: 'https://github.com/channelnet',
    ModelNumber: 'HDTC-2US',
    FirmwareName: 'hdhomeruntc_atsc',
    FirmwareVersion: '20170930',
    DeviceID: deviceId(device.key),
    DeviceAuth: '',
    TunerCount: device.tunerCount,
    BaseURL: device.baseUrl,
    LineupURL: `${device.baseUrl}/lineup.json`,
  };
}

export const LINEUP_STATUS = { ScanInProgress: 0, ScanPossible: 1, Source: 'Cable', SourceList: ['Cable'] } as const;

/** One row per channel: GuideNumber is the M3U's tvg-chno; URL the channel's MPEG-TS stream. */
export function lineupDocument(baseUrl: string, channels: readonly LineupChannel[]) {
  return channels.map((c) => ({ GuideNumber: c.guideNumber, GuideName: c.name, URL: `${baseUrl}/${c.channelId}.ts` }));
}

export function deviceXml(device: TunerDevice): string {
  const name = xmlText(device.friendlyName);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<root xmlns="urn:schemas-upnp-org:device-1-0">',
    `  <URLBase>${xmlText(device.baseUrl)}</URLBase>`,
    '  <specVersion><major>1</major><minor>0</minor></specVersion>',
    '  <device>',
    '    <deviceType>urn:schemas-upnp-org:device:MediaServer:1</deviceType>',
    `    <friendlyName>${name}</friendlyName>`,
    '    <manufacturer>Silicondust</manufacturer>',
    '    <modelName>HDTC-2US</modelName>',
    '    <modelNumber>HDTC-2US</modelNumber>',
    `    <serialNumber>${deviceId(device.key)}</serialNumber>`,
    `    <UDN>${udn(device.key)}</UDN>`,
    '  </device>',
    '</root>',
    '',
  ].join('\n');
}
