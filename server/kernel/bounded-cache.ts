// A Map bounded to `capacity` entries that forgets the one used longest ago when full: the
// process-wide caches (compiled card patterns and scanned texts, fact terms, query vectors,
// sessions, rate-limit windows, the offline narrator's readings) stay bounded however many
// stories, players and actions a long-running server meets.
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used; undefined when not kept. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /**
   * The value without counting a use: for caches read thousands of times a turn (card keys), where
   * forgetting in insertion order is enough and a use's re-insertion would cost more than a miss.
   */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` as the most recently used, forgetting the least recently used past the capacity. */
  set(key: K, value: V): V {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    return value;
  }

  /** The kept value, else `compute`'s, kept. */
  getOrSet(key: K, compute: (key: K) => V): V {
    return this.get(key) ?? this.set(key, compute(key));
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Forgets every entry `matches` holds for (a user's sessions, say). */
  deleteWhere(matches: (value: V, key: K) => boolean): void {
    for (const [key, value] of this.entries) if (matches(value, key)) this.entries.delete(key);
  }
}
