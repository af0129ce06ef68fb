package org.rampa.kubernetes;

/**
 * Where the extender learns the cluster's nodes and bound GPU pods: it lists everything once at
 * {@link #start} (so the ledger is rebuilt from the API server after a restart, {@link
 * GangScheduler#replaceAll}), then feeds every change ({@link GangScheduler#upsertNode}, {@link
 * GangScheduler#deleteNode}, {@link GangScheduler#upsertPod}, {@link GangScheduler#deletePod}).
 */
public interface ClusterSource extends AutoCloseable {

  /** Lists, hands the list to {@code scheduler}, and keeps feeding it changes until {@link #close}. */
  void start(GangScheduler scheduler);

  @Override
  void close();
}
