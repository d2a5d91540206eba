// Many rows written (or keys looked up) a few hundred to a statement instead of one each: every statement
// costs a round of building, compiling and binding. A slice binds at most VALUES_PER_STATEMENT values, well
// within both engines' limits (SQLite 32,766 bound values, PostgreSQL 65,535).

const VALUES_PER_STATEMENT = 2_000;

/** `items` in order, in slices whose statement binds `valuesPerItem` values for each item. */
export function* statementSlices<T>(items: readonly T[], valuesPerItem: number): Generator<T[]> {
  const size = Math.max(1, Math.floor(VALUES_PER_STATEMENT / valuesPerItem));
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
