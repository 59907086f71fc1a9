import type { BridgeEvent, BridgeEventPayload } from '../../shared/bridge';

type Listener = (event: BridgeEvent, payload: unknown) => void;

/** Push events from main to every connected renderer, whatever the transport. */
export class BridgeEventBus {
  private readonly listeners = new Set<Listener>();

  emit<E extends BridgeEvent>(event: E, payload: BridgeEventPayload<E>): void {
    for (const listener of this.listeners) listener(event, payload);
  }

  /** Transports subscribe to forward every event; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
