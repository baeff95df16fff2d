/**
 * Waiting jobs, first in first out within each tenant (an organization) and
 * round-robin between tenants: a tenant that queues twenty files does not make
 * another tenant's single file wait behind all twenty. With one tenant it is a
 * plain FIFO queue.
 */
export class FairQueue<T> {
  private readonly byTenant = new Map<string, T[]>();
  /** Tenants with waiting items, in the order they get their next turn. */
  private readonly turns: string[] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(tenant: string, item: T): void {
    let items = this.byTenant.get(tenant);
    if (!items) {
      items = [];
      this.byTenant.set(tenant, items);
      this.turns.push(tenant);
    }
    items.push(item);
    this.count++;
  }

  /** The oldest item of the tenant whose turn it is; that tenant then goes to the back of the line. */
  shift(): T | undefined {
    const tenant = this.turns.shift();
    if (tenant === undefined) return undefined;
    const items = this.byTenant.get(tenant)!;
    const item = items.shift()!;
    this.count--;
    if (items.length > 0) this.turns.push(tenant);
    else this.byTenant.delete(tenant);
    return item;
  }
}
