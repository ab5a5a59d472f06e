// Query and body fields of the subscription and VOD PPV routes. Ids and transaction ids may
// come as JSON numbers or strings (forms only have strings); text with NUL characters is
// refused, because PostgreSQL cannot store or compare it.
import { z } from 'zod';
import { parseStorePlatform } from '../entitlements/stores/index.ts';
import { STORE_PLATFORMS } from '../vocabulary.ts';
import { bodyObject, optionalText, pathId, text } from './params.ts';

/** A base64 app receipt can be hundreds of KB; the Custom API body limit (BODY_LIMIT_CUSTOM) bounds it first. */
export const MAX_RECEIPT_CHARS = 1_000_000;
/** Google purchase tokens and Amazon userId:receiptId pairs are a few hundred characters. */
export const MAX_TRANSACTION_ID_CHARS = 4096;
export const MAX_RESTORE_IDS = 20;
const MAX_DEVICE_ID_CHARS = 255;

const numberAsText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value);
const NUL_MESSAGE = (field: string) => `The ${field.replaceAll('_', ' ')} may not contain NUL characters.`;

const noNul = (value: string | undefined) => value === undefined || !value.includes('\u0000');
const requiredText = (field: string, max: number) => z.preprocess(numberAsText, text(field, max)).refine(noNul, NUL_MESSAGE(field));
const optionalStoreText = (field: string, max: number) => z.preprocess(numberAsText, optionalText(field, max)).refine(noNul, NUL_MESSAGE(field));

const optionalId = (field: string) =>
  optionalStoreText(field, 20).transform((value, ctx) => {
    if (value === undefined) return null;
    const id = /^\d+$/.test(value.trim()) ? pathId(value.trim()) : -1;
    if (id >= 0) return id;
    ctx.addIssue({ code: 'custom', message: `The ${field.replaceAll('_', ' ')} must be an integer id.` });
    return z.NEVER;
  });

const requiredId = (field: string) =>
  optionalId(field)
    .refine((id) => id !== null, `The ${field.replaceAll('_', ' ')} field is required.`)
    .transform((id) => id!);

/** Absent: the store of the client's Platform-Id (the route decides); present: one of the four stores. */
const storePlatform = optionalText('store_platform', 20).transform((value, ctx) => {
  if (value === undefined) return undefined;
  const store = parseStorePlatform(value);
  if (store) return store;
  ctx.addIssue({ code: 'custom', message: `The selected store platform is invalid; use one of ${STORE_PLATFORMS.join(', ')}.` });
  return z.NEVER;
});

const purchaseFields = {
  store_platform: storePlatform,
  product_id: requiredText('product_id', 255),
  receipt_data: optionalStoreText('receipt_data', MAX_RECEIPT_CHARS),
  original_transaction_id: optionalStoreText('original_transaction_id', MAX_TRANSACTION_ID_CHARS),
  device_id: optionalStoreText('device_id', MAX_DEVICE_ID_CHARS),
};

/** What a verify cannot do without: something the store can look the purchase up by. */
const receiptOrTransaction = (body: { receipt_data?: string | undefined; original_transaction_id?: string | undefined }) =>
  body.receipt_data !== undefined || body.original_transaction_id !== undefined;
const RECEIPT_REQUIRED = { message: 'The receipt data field is required (or original transaction id).', path: ['receipt_data'] };

export const subscriptionVerifyBody = bodyObject(z.object(purchaseFields).refine(receiptOrTransaction, RECEIPT_REQUIRED));

/** A JSON array of ids, or one id (a form field holds a single value). */
const transactionIds = z.preprocess(
  (value) => (Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value]),
  z
    .array(requiredText('original_transaction_ids', MAX_TRANSACTION_ID_CHARS))
    .min(1, 'The original transaction ids field is required.')
    .max(MAX_RESTORE_IDS, `The original transaction ids may not have more than ${MAX_RESTORE_IDS} items.`)
    .transform((ids) => [...new Set(ids.map((id) => id.trim()))]),
);

export const subscriptionRestoreBody = bodyObject(z.object({ store_platform: storePlatform, device_id: purchaseFields.device_id, original_transaction_ids: transactionIds }));

export const ppvVerifyBody = bodyObject(
  z.object({ ...purchaseFields, video_tube_id: requiredId('video_tube_id'), channel_tube_id: optionalId('channel_tube_id') }).refine(receiptOrTransaction, RECEIPT_REQUIRED),
);

export const ppvStatusQuery = z.object({ video_tube_id: requiredId('video_tube_id'), channel_tube_id: optionalId('channel_tube_id') });
