// errors.js -- errors the bridge throws.  The kind is said once, as
// vdxType (with its facts as vdxFields); the message is the detail alone,
// so the host keeps the kind across the boundary without parsing text.

// Returns an error of class Ctor (Error by default) of the given kind.
export function bridgeError(kind, detail, fields, Ctor) {
  const e = new (Ctor || Error)(detail);
  e.vdxType = kind;
  e.vdxFields = fields || null;
  return e;
}

// A misuse of the API: wrong argument type or an unknown option.
export function badArgument(detail) {
  return bridgeError('InvalidArgument', detail, null, TypeError);
}

// Throws an InvalidArgument naming the first key of opts that is not allowed.
export function checkKeys(opts, allowed, what) {
  if (typeof opts !== 'object') throw badArgument(what + ': options must be an object');
  for (const key of Object.keys(opts)) {
    if (!allowed.includes(key)) throw badArgument(what + ': unexpected option ' + JSON.stringify(key));
  }
}
