// What the broker refuses of a client's names, as mosquitto does (its mosquitto_validate_utf8 and topic checks): text
// that is not a character (U+0000 and the other C0/C1 controls, non-characters), a topic deeper than 200 levels
// (mosquitto's TOPIC_HIERARCHY_LIMIT), wildcards anywhere but alone in a filter's level ('#' last). A client id is
// also held to MAX_CLIENT_ID_BYTES for every protocol version (aedes applies its limit only to MQTT 3.1).

/** a client id's longest UTF-8 length: device UIDs and tokens fit; 65,535 bytes per connection do not */
export const MAX_CLIENT_ID_BYTES = 128;
/** mosquitto's TOPIC_HIERARCHY_LIMIT */
export const MAX_TOPIC_LEVELS = 200;
/** a per-connection outbound buffer's default bound (MQTT_MAX_OUTBOUND_BYTES) */
export const DEFAULT_MAX_OUTBOUND_BYTES = 4 * 1024 * 1024;

// C0 and C1 controls (U+0000 included), and the non-characters U+FDD0–U+FDEF, U+FFFE and U+FFFF; a lone surrogate
// (what an invalid UTF-8 sequence cannot decode to, but a JavaScript string can hold) too
const NOT_TEXT =
  /[\u0000-\u001f\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** whether a client id may connect: valid text, at most MAX_CLIENT_ID_BYTES (an empty one is aedes' to handle) */
export function validClientId(id: string): boolean {
  return Buffer.byteLength(id) <= MAX_CLIENT_ID_BYTES && !NOT_TEXT.test(id);
}

/**
 * whether a PUBLISH topic is acceptable: non-empty text, no wildcard, at most MAX_TOPIC_LEVELS levels. U+FFFD is what an
 * invalid UTF-8 topic decodes to: such a packet is malformed (its connection closed), not merely outside the rights
 * (dropped), since issue 27 made the latter keep the connection.
 */
export function validPublishTopic(topic: string): boolean {
  if (
    topic.length === 0 ||
    topic.length > 65535 ||
    NOT_TEXT.test(topic) ||
    topic.includes('+') ||
    topic.includes('#') ||
    topic.includes('\ufffd')
  )
    return false;
  return levels(topic) <= MAX_TOPIC_LEVELS;
}

/** whether a subscription filter is acceptable: text, '+' alone in its level, '#' alone in the last level */
export function validFilter(filter: string): boolean {
  if (filter.length === 0 || filter.length > 65535 || NOT_TEXT.test(filter)) return false;
  const parts = filter.split('/');
  if (parts.length > MAX_TOPIC_LEVELS) return false;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.includes('#') && (p !== '#' || i !== parts.length - 1)) return false;
    if (p.includes('+') && p !== '+') return false;
  }
  return true;
}

function levels(topic: string): number {
  let n = 1;
  for (let i = topic.indexOf('/'); i >= 0; i = topic.indexOf('/', i + 1)) n++;
  return n;
}
