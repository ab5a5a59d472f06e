import { sql } from 'drizzle-orm';
// Golden tests of the Legacy Web Services: whole responses (status, Content-Type or its
// absence, exact body) for every endpoint and error row, in GET, POST form and POST JSON form.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogInput } from '../src/catalog/format.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { buildApp } from '../src/app.ts';
import { JPEG_STUB as JPEG, PNG_1X1 as PNG } from './fixtures/catalog.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';

const WEB_VAST = {
  platform: 'web',
  vastUrl: 'https://ads.example/web?a=1&cb={{CACHEBUSTER}}&t=[TIMESTAMP]',
  vastVersion: 3,
  skippable: true,
  adFrequency: 2,
  midRollFrequency: 25,
  slottable: true,
  timeFrom: 8,
  timeTo: 20,
  vastType: 'fullscreen',
  allowAdsInVod: true,
} as const;

function legacyCatalog(): CatalogInput {
  const account = (id: number, name: string) => ({ id, username: name, email: `${name}@example.com`, password: 'pw', publicUrl: name });
  const channel = (id: number, ownerId: number, extra: object = {}) => ({ id, ownerId, name: `Channel ${id}`, url: `c${id}`, categoryId: 1, ...extra });
  return {
    format: 'channel-network-catalog',
    version: 1,
    accounts: [account(21, 'carol'), account(22, 'dave'), account(23, 'erin')],
    categories: [{ id: 1, name: 'News' }],
    channels: [
      channel(401, 21, {
        vast: [WEB_VAST, { platform: 'firetv', vastUrl: 'https://ads.example/firetv' }],
        roku: { addedToRoku: true, lastUpdateDate: '2021-04-19T20:11:16.37Z' },
      }),
      channel(402, 21, { vast: [{ platform: 'roku', vastUrl: 'https://ads.example/roku' }], roku: { addedToRoku: false, lastUpdateDate: '2021-04-19T22:11:16+02:00' } }),
      channel(403, 21, { deleted: true, vast: [WEB_VAST], roku: { addedToRoku: true, lastUpdateDate: '2021-01-01T00:00:00Z' } }),
      channel(404, 23, { vast: [WEB_VAST] }),
      channel(405, 21, { roku: { addedToRoku: true, lastUpdateDate: null } }),
      channel(406, 21),
      channel(407, 22),
    ],
    apps: [
      {
        id: 501,
        ownerId: 21,
        platform: 'mobile',
        appName: 'Carol "Mobile" & <Co>',
        slug: 'carol',
        about: 'Tom & Jerry\'s "best" <show>\nÜnïcödé 📺\t\u0001',
        privacyPolicyLink: 'https://carol.example/privacy?x=1&y=2',
        mobile: {
          selectionColor: '112233',
          headerFooterColor: '445566',
          backgroundColor: '778899',
          fontColor: 'aabbcc',
          copyrightPolicyLink: 'https://carol.example/copyright',
          supportEmail: 'help@carol.example',
          faqLink: 'https://carol.example/faq',
          instagram: 'carol_ig',
          twitter: 'carol_tw',
        },
        images: { headerLogo: PNG, logoIos: JPEG, logo: PNG },
        channels: [
          { channelId: 401, sorting: 3, useVastSettings: true },
          { channelId: 403, sorting: 1 },
        ],
      },
      {
        id: 502,
        ownerId: 21,
        platform: 'roku',
        appName: 'Carol Roku',
        adLink: 'https://ads.example/app?x=1&y=2',
        about: 'Roku about',
        apiKey: '0E0C8F5E-2B7C-4D43-9D0A-3C6F1F2D9A11',
        images: { avatarHd: PNG, avatarSd: JPEG },
      },
      {
        id: 503,
        ownerId: 21,
        platform: 'firetv',
        appName: 'Carol Fire',
        slug: 'carol-fire',
        theme: { primaryColor: '010101', secondaryColor: '020202', backgroundColor: '030303', styleColor: '040404' },
        images: { logo: PNG, icon: JPEG, backgroundImage: PNG, image1: PNG },
        channels: [
          { channelId: 401, channelNumber: '7', useVastSettings: true, lastUpdateDate: '2026-11-01T08:30:00.5Z' },
          { channelId: 403, useVastSettings: true },
          { channelId: 402, useVastSettings: true, lastUpdateDate: '2026-11-02T00:00:00Z' },
          { channelId: 405 },
        ],
      },
      {
        id: 504,
        ownerId: 21,
        platform: 'androidtv',
        appName: 'Carol Android',
        theme: { primaryColor: 'a1a1a1', secondaryColor: 'b2b2b2', styleColor: 'c3c3c3' },
        channels: [{ channelId: 401, channelNumber: '1', useVastSettings: true }],
      },
      {
        id: 505,
        ownerId: 22,
        platform: 'roku',
        appName: 'Dave Roku',
        theme: { primaryColor: 'd1d1d1', secondaryColor: 'd2d2d2', backgroundColor: 'd3d3d3', styleColor: 'd4d4d4' },
      },
      { id: 506, ownerId: 22, platform: 'appletv', appName: 'Dave Apple' },
      { id: 507, ownerId: 22, platform: 'mobile', appName: 'Dave Mobile', channels: [{ channelId: 407 }] },
    ],
  };
}

// ---------------------------------------------------------------- expected bytes

const XML_TYPE = 'text/xml; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const xml = (text: string) => `<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="http://tempuri.org/">${text}</string>`;

type Expected = { status: number; type: string | undefined; body: string };
const wrapped = (text: string): Expected => ({ status: 200, type: XML_TYPE, body: xml(text) });
const ajax = (body: string): Expected => ({ status: 200, type: JSON_TYPE, body });
const bare = (body: string): Expected => ({ status: 200, type: undefined, body });
const page = (body: string): Expected => ({ status: 500, type: TEXT_TYPE, body });

const missing = (name: string) => page(`System.InvalidOperationException: Missing parameter: ${name}.\r\n`);
const cannotConvert = (value: string, type: 'Int32' | 'Boolean', inner: string) =>
  page(`System.ArgumentException: Cannot convert ${value} to System.${type}.\r\nParameter name: type ---> ${inner}\r\n   --- End of inner exception stack trace ---\r\n`);
const notInt = (value: string) => cannotConvert(value, 'Int32', 'System.FormatException: Input string was not in a correct format.');
const tooLarge = (value: string) => cannotConvert(value, 'Int32', 'System.OverflowException: Value was either too large or too small for an Int32.');
const notBoolean = (value: string) => cannotConvert(value, 'Boolean', 'System.FormatException: String was not recognized as a valid Boolean.');
const invalidFormat = (contentType: string) => page(`System.InvalidOperationException: Request format is invalid: ${contentType}.\r\n`);

const WEB_VAST_JSON =
  '{"ChannelId":401,"VastVersion":3,"VastUrl":"https://ads.example/web?a=1&cb={{CACHEBUSTER}}&t=[TIMESTAMP]","Skippable":true,"AdFrequency":2,' +
  '"MidRollFrequency":25,"Slottable":true,"TimeFrom":8,"TimeTo":20,"VastType":"fullscreen","Platform":"web","AllowAdsInVod":true}';
const WEB_VAST_XML = WEB_VAST_JSON.replace('a=1&cb=', 'a=1&amp;cb=').replace('}}&t=', '}}&amp;t=');
const FIRETV_VAST_JSON =
  '{"ChannelId":401,"VastVersion":1,"VastUrl":"https://ads.example/firetv","Skippable":false,"AdFrequency":null,' +
  '"MidRollFrequency":null,"Slottable":false,"TimeFrom":null,"TimeTo":null,"VastType":null,"Platform":"firetv","AllowAdsInVod":false}';

const ROKU_401 = '{"ChannelTubeId":401,"AddedToRoku":true,"LastUpdateDate":"2021-04-19T20:11:16.37"}';

const CAROL_ROKU =
  `{"UserID":21,"AppName":"Carol Roku","AdLink":"https://ads.example/app?x=1&amp;y=2","About":"Roku about","PrivacyPolicyLink":null,` +
  `"ImageHD":"${PNG}","ImageSD":"${JPEG}","ApiKey":"0e0c8f5e-2b7c-4d43-9d0a-3c6f1f2d9a11",` +
  '"PrimaryColor":"6f1ab1","SecondaryColor":"b3b3b3","BackgroundColor":"101010","StyleColor":"ffffff"}';
const DAVE_ROKU =
  '{"UserID":22,"AppName":"Dave Roku","AdLink":null,"About":null,"PrivacyPolicyLink":null,"ImageHD":null,"ImageSD":null,"ApiKey":null,' +
  '"PrimaryColor":"d1d1d1","SecondaryColor":"d2d2d2","BackgroundColor":"d3d3d3","StyleColor":"d4d4d4"}';

const CAROL_MOBILE_HEAD =
  `{"UserID":21,"ChannelTubeId":401,"HeaderTitle":"Carol \\"Mobile\\" &amp; &lt;Co&gt;","Slug":"carol","HeaderLogo":"${PNG}",` +
  `"LogoIOS":"${JPEG}","LogoAndroid":null,"Hex1":"112233","Hex2":"445566","Hex3":"778899","FontColor":"aabbcc",` +
  '"About":"Tom &amp; Jerry\'s \\"best\\" &lt;show&gt;\\nÜnïcödé 📺\\t\\u0001","CopyrightLink":"https://carol.example/copyright",' +
  '"GDPRLink":null,"CustomerSupportEmail":"help@carol.example","FAQ":"https://carol.example/faq","TermsLink":null,' +
  '"PrivacyPolicyLink":"https://carol.example/privacy?x=1&amp;y=2","Instagram":"carol_ig","Facebook":null,"Twitter":"carol_tw",';
const CAROL_MOBILE_401 = `${CAROL_MOBILE_HEAD}"Sorting":3,"AddedToApp":true,"UseVastSettings":true}`;
const CAROL_MOBILE_405 = `${CAROL_MOBILE_HEAD.replace('"ChannelTubeId":401', '"ChannelTubeId":405')}"Sorting":null,"AddedToApp":false,"UseVastSettings":false}`;
const DAVE_MOBILE_407 =
  '{"UserID":22,"ChannelTubeId":407,"HeaderTitle":"Dave Mobile","Slug":null,"HeaderLogo":null,"LogoIOS":null,"LogoAndroid":null,' +
  '"Hex1":null,"Hex2":null,"Hex3":null,"FontColor":null,"About":null,"CopyrightLink":null,"GDPRLink":null,"CustomerSupportEmail":null,' +
  '"FAQ":null,"TermsLink":null,"PrivacyPolicyLink":null,"Instagram":null,"Facebook":null,"Twitter":null,' +
  '"Sorting":null,"AddedToApp":true,"UseVastSettings":false}';

const FIRE_SETTINGS =
  '"Settings":[' +
  `{"ChannelTubeId":401,"AddedToTV":true,"Platform":"fire-tv","UseVastSettings":true,"ChannelNumber":"7","AppId":503,"LastUpdateDate":"2026-11-01T08:30:00.5","VastSettings":${FIRETV_VAST_JSON}},` +
  '{"ChannelTubeId":402,"AddedToTV":true,"Platform":"fire-tv","UseVastSettings":true,"ChannelNumber":null,"AppId":503,"LastUpdateDate":"2026-11-02T00:00:00","VastSettings":null},' +
  '{"ChannelTubeId":405,"AddedToTV":true,"Platform":"fire-tv","UseVastSettings":false,"ChannelNumber":null,"AppId":503,"LastUpdateDate":null}]}';
const FIRE_THEME = '"PrimaryColor":"010101","SecondaryColor":"020202","BackgroundColor":"030303","StyleColor":"040404","Platform":"fire-tv","ChannelId":null,';
const FIRE_HEAD = '{"UserID":21,"AppName":"Carol Fire","Slug":"carol-fire","About":null,"PrivacyPolicyLink":null,';
const CAROL_FIRE = `${FIRE_HEAD}"Logo":"${PNG}","Icon":"${JPEG}","BackgroundImage":"${PNG}","Image1":"${PNG}","Image2":null,${FIRE_THEME}"AppId":503,${FIRE_SETTINGS}`;
const CAROL_FIRE_NO_IMAGES = `${FIRE_HEAD}"Logo":null,"Icon":null,"BackgroundImage":null,"Image1":null,"Image2":null,${FIRE_THEME}"AppId":null,${FIRE_SETTINGS}`;
const CAROL_ANDROID_XML =
  '{"UserID":21,"AppName":"Carol Android","Slug":null,"About":null,"PrivacyPolicyLink":null,"Logo":null,"Icon":null,"BackgroundImage":null,' +
  '"Image1":null,"Image2":null,"PrimaryColor":"a1a1a1","SecondaryColor":"b2b2b2","BackgroundColor":null,"StyleColor":"c3c3c3",' +
  '"Platform":"android-tv","ChannelId":null,"AppId":504,"Settings":[{"ChannelTubeId":401,"AddedToTV":true,"Platform":"android-tv",' +
  `"UseVastSettings":true,"ChannelNumber":"1","AppId":504,"LastUpdateDate":null,"VastSettings":${WEB_VAST_XML}}]}`;
const DAVE_APPLE =
  '{"UserID":22,"AppName":"Dave Apple","Slug":null,"About":null,"PrivacyPolicyLink":null,"Logo":null,"Icon":null,"BackgroundImage":null,' +
  '"Image1":null,"Image2":null,"PrimaryColor":null,"SecondaryColor":null,"BackgroundColor":null,"StyleColor":null,' +
  '"Platform":"apple-tv","ChannelId":null,"AppId":506,"Settings":[]}';

// ---------------------------------------------------------------- requests

const VAST = 'VastService.asmx/GetVastSettings';
const ROKU_SETTINGS = 'RokuAppGeneratorService.asmx/GetChannelTubeRokuSettings';
const ROKU_APP = 'RokuAppGeneratorService.asmx/GetUserRokuApp';
const MOBILE = 'MobileAppGeneratorService.asmx/GetChannelMobileApp';
const TV = 'TVAppGeneratorService.asmx/GetUserTVApp';

const get = (path: string, query = ''): InjectOptions => ({ method: 'GET', url: `/WebServices/${path}${query && `?${query}`}` });
const form = (path: string, body: string): InjectOptions => ({
  method: 'POST',
  url: `/WebServices/${path}`,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: body,
});
const json = (path: string, body: string): InjectOptions => ({
  method: 'POST',
  url: `/WebServices/${path}`,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  payload: body,
});

type Row = [name: string, request: InjectOptions, expected: Expected];

const VAST_ROWS: Row[] = [
  ['web row, raw JSON without Content-Type', get(VAST, 'channelId=401'), bare(WEB_VAST_JSON)],
  ['case-insensitive name', get(VAST, 'CHANNELID=401'), bare(WEB_VAST_JSON)],
  ['case-insensitive .asmx file', get('vastservice.ASMX/GetVastSettings', 'channelId=401'), bare(WEB_VAST_JSON)],
  ['POST form', form(VAST, 'channelid=401'), bare(WEB_VAST_JSON)],
  ['POST JSON is not wrapped either', json(VAST, '{"ChannelId":401}'), bare(WEB_VAST_JSON)],
  ['only per-platform rows: null', get(VAST, 'channelId=402'), bare('null')],
  ['no rows: null', get(VAST, 'channelId=405'), bare('null')],
  ['deleted channel: null', get(VAST, 'channelId=403'), bare('null')],
  ['missing channel: null', get(VAST, 'channelId=999'), bare('null')],
  ['missing parameter', get(VAST), missing('channelId')],
  ['a name without "=" names nothing', get(VAST, 'channelId'), missing('channelId')],
  ['POST reads the form, not the query', { ...form(VAST, ''), url: `/WebServices/${VAST}?channelId=401` }, missing('channelId')],
  ['empty value is present but not a number', get(VAST, 'channelId='), notInt('')],
  ['junk number', get(VAST, 'channelId=abc'), notInt('abc')],
  ['fraction', get(VAST, 'channelId=1.5'), notInt('1.5')],
  ['overflow', get(VAST, 'channelId=99999999999'), tooLarge('99999999999')],
  ['value is HTML-encoded in the page', get(VAST, 'channelId=%3Cb%3E'), notInt('&lt;b&gt;')],
];

const ROKU_ROWS: Row[] = [
  ['fractional seconds', get(ROKU_SETTINGS, 'channelId=401'), wrapped(ROKU_401)],
  ['whole seconds, rendered in UTC', get(ROKU_SETTINGS, 'channelId=402'), wrapped('{"ChannelTubeId":402,"AddedToRoku":false,"LastUpdateDate":"2021-04-19T20:11:16"}')],
  ['no date', get(ROKU_SETTINGS, 'channelId=405'), wrapped('{"ChannelTubeId":405,"AddedToRoku":true,"LastUpdateDate":null}')],
  ['no row: null', get(ROKU_SETTINGS, 'channelId=406'), wrapped('null')],
  ['deleted channel: null', get(ROKU_SETTINGS, 'channelId=403'), wrapped('null')],
  ['POST form', form(ROKU_SETTINGS, 'ChannelId=401&other=1'), wrapped(ROKU_401)],
  [
    'POST JSON answers the "d" string',
    json(ROKU_SETTINGS, '{"channelId":401}'),
    ajax('{"d":"{\\"ChannelTubeId\\":401,\\"AddedToRoku\\":true,\\"LastUpdateDate\\":\\"2021-04-19T20:11:16.37\\"}"}'),
  ],
  ['POST JSON with the number as a string', json(ROKU_SETTINGS, '{"channelId":"406"}'), ajax('{"d":"null"}')],
  ['POST JSON missing parameter', json(ROKU_SETTINGS, '{}'), missing('channelId')],
  ['POST JSON empty body', json(ROKU_SETTINGS, ''), missing('channelId')],
  ['POST JSON junk number', json(ROKU_SETTINGS, '{"channelId":1.5}'), notInt('1.5')],
  ['missing parameter', get(ROKU_SETTINGS, 'userId=1'), missing('channelId')],
  ['junk number', get(ROKU_SETTINGS, 'channelId=x1'), notInt('x1')],
  ['Roku app, stock colours, images as base64', get(ROKU_APP, 'userId=21'), wrapped(CAROL_ROKU)],
  ['Roku app with theme, no images, no key', form(ROKU_APP, 'USERID=22'), wrapped(DAVE_ROKU)],
  ['no Roku app: null', get(ROKU_APP, 'userId=23'), wrapped('null')],
  ['Roku app missing parameter', form(ROKU_APP, ''), missing('userId')],
  ['Roku app junk number', get(ROKU_APP, 'userId=abc'), notInt('abc')],
];

const MOBILE_ROWS: Row[] = [
  ['assigned channel; escaping, non-ASCII and control chars', get(MOBILE, 'userId=21&channelId=401'), wrapped(CAROL_MOBILE_401)],
  ['channel not assigned', form(MOBILE, 'userid=21&CHANNELID=405'), wrapped(CAROL_MOBILE_405)],
  ['app without mobile fields', get(MOBILE, 'userId=22&channelId=407'), wrapped(DAVE_MOBILE_407)],
  ['deleted channel: null', get(MOBILE, 'userId=21&channelId=403'), wrapped('null')],
  ["someone else's channel: null", get(MOBILE, 'userId=21&channelId=404'), wrapped('null')],
  ['missing channel: null', get(MOBILE, 'userId=21&channelId=999'), wrapped('null')],
  ['no mobile app: null', get(MOBILE, 'userId=23&channelId=404'), wrapped('null')],
  ['empty userId: plain string', get(MOBILE, 'userId=&channelId=401'), wrapped('One of the required fields is not passed')],
  ['empty channelId: plain string', form(MOBILE, 'userId=21&channelId='), wrapped('One of the required fields is not passed')],
  ['empty beats junk', get(MOBILE, 'userId=abc&channelId='), wrapped('One of the required fields is not passed')],
  ['POST JSON empty', json(MOBILE, '{"userId":"","channelId":401}'), ajax('{"d":"One of the required fields is not passed"}')],
  ['POST JSON null reads as empty', json(MOBILE, '{"userId":21,"channelId":null}'), ajax('{"d":"One of the required fields is not passed"}')],
  ['missing channelId', get(MOBILE, 'userId=21'), missing('channelId')],
  ['missing both: the first declared', get(MOBILE), missing('userId')],
  ['junk userId', get(MOBILE, 'userId=abc&channelId=401'), notInt('abc')],
  ['junk channelId', get(MOBILE, 'userId=21&channelId=4.5'), notInt('4.5')],
];

const TV_ROWS: Row[] = [
  ['fire-tv with images', get(TV, 'userId=21&platform=fire-tv&skipImages=false'), wrapped(CAROL_FIRE)],
  ['fire-tv, skipImages=true', get(TV, 'userId=21&platform=fire-tv&skipImages=true'), wrapped(CAROL_FIRE_NO_IMAGES)],
  ['skipImages as .NET Boolean text', form(TV, 'userid=21&PLATFORM=fire-tv&skipimages=%20TRUE%20'), wrapped(CAROL_FIRE_NO_IMAGES)],
  ['android-tv: no BackgroundColor, web VAST row', get(TV, 'userId=21&platform=android-tv&skipImages=false'), wrapped(CAROL_ANDROID_XML)],
  ['apple-tv without theme or channels', get(TV, 'userId=22&platform=apple-tv&skipImages=false'), wrapped(DAVE_APPLE)],
  ['no app on the platform', get(TV, 'userId=21&platform=apple-tv&skipImages=false'), wrapped('{"error":"Application does not exist on apple-tv platform"}')],
  ['unknown platform', get(TV, 'userId=21&platform=Fire-TV&skipImages=false'), wrapped('{"error":"Application does not exist on Fire-TV platform"}')],
  ['platform text escaped', get(TV, 'userId=21&platform=%3Cx%3E%26%22y%22&skipImages=true'), wrapped('{"error":"Application does not exist on &lt;x&gt;&amp;\\"y\\" platform"}')],
  ['unknown user', get(TV, 'userId=99&platform=fire-tv&skipImages=true'), wrapped('{"error":"Application does not exist on fire-tv platform"}')],
  ['empty userId', get(TV, 'userId=&platform=fire-tv&skipImages=true'), wrapped('{"error":"One of the required fields is not passed"}')],
  ['empty platform', form(TV, 'userId=abc&platform=&skipImages=false'), wrapped('{"error":"One of the required fields is not passed"}')],
  ['POST JSON', json(TV, '{"userId":22,"platform":"apple-tv","skipImages":false}'), ajax(`{"d":"${DAVE_APPLE.replaceAll('"', '\\"')}"}`)],
  ['POST JSON error object', json(TV, '{"userId":"","platform":"fire-tv","skipImages":true}'), ajax('{"d":"{\\"error\\":\\"One of the required fields is not passed\\"}"}')],
  ['junk skipImages', get(TV, 'userId=21&platform=fire-tv&skipImages=yes'), notBoolean('yes')],
  ['junk skipImages before the empty check', get(TV, 'userId=&platform=&skipImages=1'), notBoolean('1')],
  ['missing skipImages', get(TV, 'userId=21&platform=fire-tv'), missing('skipImages')],
  ['missing platform', get(TV, 'userId=21&skipImages=true'), missing('platform')],
  ['junk userId', get(TV, 'userId=1.5&platform=fire-tv&skipImages=true'), notInt('1.5')],
  ['overflowing userId', get(TV, 'userId=99999999999&platform=fire-tv&skipImages=true'), tooLarge('99999999999')],
];

const PROTOCOL_ROWS: Row[] = [
  ['unknown method', get('VastService.asmx/GetVast', 'channelId=401'), page('System.InvalidOperationException: GetVast Web Service method name is not valid.\r\n')],
  [
    'method names are case-sensitive',
    form('VastService.asmx/getvastsettings', 'channelId=401'),
    page('System.InvalidOperationException: getvastsettings Web Service method name is not valid.\r\n'),
  ],
  [
    'a method of another service',
    get('VastService.asmx/GetUserRokuApp', 'userId=21'),
    page('System.InvalidOperationException: GetUserRokuApp Web Service method name is not valid.\r\n'),
  ],
  ['empty method name', get('VastService.asmx/'), page("System.InvalidOperationException: Request format is unrecognized for URL unexpectedly ending in '/'.\r\n")],
  [
    'PUT',
    { method: 'PUT', url: `/WebServices/${VAST}?channelId=401` },
    page("System.InvalidOperationException: Request format is unrecognized for URL unexpectedly ending in '/GetVastSettings'.\r\n"),
  ],
  [
    'DELETE',
    { method: 'DELETE', url: `/WebServices/${TV}` },
    page("System.InvalidOperationException: Request format is unrecognized for URL unexpectedly ending in '/GetUserTVApp'.\r\n"),
  ],
  ['POST text/plain', { method: 'POST', url: `/WebServices/${VAST}`, headers: { 'content-type': 'text/plain' }, payload: 'channelId=401' }, invalidFormat('text/plain')],
  [
    'POST multipart',
    { method: 'POST', url: `/WebServices/${VAST}`, headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' },
    invalidFormat('multipart/form-data; boundary=x'),
  ],
  ['POST without body or Content-Type', { method: 'POST', url: `/WebServices/${VAST}` }, invalidFormat('')],
  ['POST malformed Content-Type', { method: 'POST', url: `/WebServices/${VAST}`, headers: { 'content-type': 'nonsense' }, payload: 'x' }, invalidFormat('nonsense')],
  ['POST malformed JSON', json(VAST, '{"channelId":'), invalidFormat('application/json; charset=utf-8')],
  ['POST JSON that is not an object', json(VAST, '[401]'), invalidFormat('application/json; charset=utf-8')],
  ['POST JSON with a nested value', json(VAST, '{"channelId":{"id":401}}'), invalidFormat('application/json; charset=utf-8')],
];

describe.each(BACKENDS)('Legacy Web Services on %s', (backend) => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await freshDatabase(backend);
    const imported = await importCatalog(database.db, legacyCatalog(), { replace: false, now: new Date('2026-11-21T12:00:00Z') });
    expect(imported).toMatchObject({ ok: true });
    // Load shedding off: on a loaded machine a 503 page would stand in for the answers these tests compare byte for byte.
    app = await buildApp({ database, config: { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'silent', LOG_REQUESTS: false, MAX_EVENT_LOOP_DELAY_MS: 0 }, logger: false });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const check = async (request: InjectOptions, expected: Expected) => {
    const response = await app.inject(request);
    expect({ status: response.statusCode, type: response.headers['content-type'], body: response.body }).toEqual(expected);
    if (expected.type === undefined) expect(Object.keys(response.headers)).not.toContain('content-type');
    expect(response.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
  };

  it.each(VAST_ROWS)('GetVastSettings: %s', async (_name, request, expected) => check(request, expected));
  it.each(ROKU_ROWS)('Roku: %s', async (_name, request, expected) => check(request, expected));
  it.each(MOBILE_ROWS)('GetChannelMobileApp: %s', async (_name, request, expected) => check(request, expected));
  it.each(TV_ROWS)('GetUserTVApp: %s', async (_name, request, expected) => check(request, expected));
  it.each(PROTOCOL_ROWS)('ASMX protocol: %s', async (_name, request, expected) => check(request, expected));

  it('leaves the service description pages and unknown services to the 404 handler', async () => {
    for (const url of ['/WebServices/VastService.asmx', '/WebServices/Nope.asmx/GetVastSettings?channelId=401']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });

  it("answers a failure of this service with ASMX's suppressed-details page, never a trace", async () => {
    const broken = await freshDatabase(backend);
    const brokenApp = await buildApp({ database: broken, config: { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'silent', LOG_REQUESTS: false }, logger: false });
    // A fault, not an outage (an unreachable database answers 503: see limits.test.ts).
    await broken.db.execute(sql`drop table apps cascade`);
    try {
      const response = await brokenApp.inject(get(ROKU_APP, 'userId=21'));
      expect({ status: response.statusCode, type: response.headers['content-type'], body: response.body }).toEqual(page('Server was unable to process request.\r\n'));
    } finally {
      await brokenApp.close();
      await broken.close();
    }
  });

  it('writes exact UTF-8 bytes without a byte-order mark or trailing newline', async () => {
    const response = await app.inject(get(MOBILE, 'userId=21&channelId=401'));
    expect(response.body).toBe(xml(CAROL_MOBILE_401));
    expect(response.rawPayload.equals(Buffer.from(xml(CAROL_MOBILE_401), 'utf8'))).toBe(true);
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
  });
});
