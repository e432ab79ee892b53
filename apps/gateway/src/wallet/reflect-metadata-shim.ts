// @peculiar/x509 (through tsyringe) insists on a Reflect metadata API at load time and none is
// installed; this is the small part of it tsyringe calls (get/define/has metadata). Imported
// before @peculiar/x509, by the test verifier chain only. Own and inherited lookups are the
// same here: nothing in these tests defines metadata on a prototype chain.
type MetadataStore = WeakMap<object, Map<unknown, unknown>>;
const store: MetadataStore = new WeakMap();
const metadataOf = (target: object) => {
  let map = store.get(target);
  if (!map) store.set(target, (map = new Map()));
  return map;
};
const reflect = Reflect as unknown as Record<string, unknown>;
if (typeof reflect.getMetadata !== 'function') {
  reflect.defineMetadata = (key: unknown, value: unknown, target: object) =>
    metadataOf(target).set(key, value);
  reflect.getMetadata = (key: unknown, target: object) => store.get(target)?.get(key);
  reflect.getOwnMetadata = reflect.getMetadata;
  reflect.hasMetadata = (key: unknown, target: object) => store.get(target)?.has(key) ?? false;
  reflect.hasOwnMetadata = reflect.hasMetadata;
  reflect.metadata = (key: unknown, value: unknown) => (target: object) => metadataOf(target).set(key, value);
}
export {};
