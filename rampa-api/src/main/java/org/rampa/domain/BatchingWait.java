package org.rampa.domain;

/** How long a request waits for its batch to fill before the pipeline sees it. */
public enum BatchingWait {
  /** Requests arrive already batched (offline or client-side batching): no wait is added. */
  NONE,
  /** The first request of a batch waits for {@code b - 1} more arrivals at the required rate. */
  FILL_AT_REQUIRED_RATE
}
