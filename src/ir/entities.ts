/**
 * Branded ids for IR entities (Cranelift `entities.rs`, naga `Handle<T>`): a ValueId can
 * never be passed where a BlockId is expected, though both are plain numbers at run time.
 */
declare const brand: unique symbol;
type Id<B extends string> = number & { readonly [brand]: B };

export type ValueId = Id<'value'>;
export type BlockId = Id<'block'>;
export type InstId = Id<'inst'>;

export const valueId = (n: number): ValueId => n as ValueId;
export const blockId = (n: number): BlockId => n as BlockId;
export const instId = (n: number): InstId => n as InstId;
