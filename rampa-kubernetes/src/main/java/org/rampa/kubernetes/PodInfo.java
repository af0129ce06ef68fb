package org.rampa.kubernetes;

import java.util.Map;
import java.util.Optional;

/**
 * What the extender needs of a v1.Pod: identity, labels and annotations (the pod contract, {@link
 * PodContract}), the node it is bound to and its phase, and the GPUs it asks for: the sum over its
 * containers of {@code nvidia.com/gpu} and of each {@code nvidia.com/mig-<profile>} (limits, which
 * is where extended resources are requested; requests when a container states only those).
 */
public record PodInfo(
    String namespace,
    String name,
    String uid,
    Map<String, String> labels,
    Map<String, String> annotations,
    Optional<String> nodeName,
    String phase,
    int gpus,
    Map<String, Integer> migInstances) {

  public PodInfo {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    migInstances = Map.copyOf(migInstances);
  }

  /** namespace/name, the key kube-scheduler's messages use. */
  public String key() {
    return namespace + "/" + name;
  }

  /** A pod that ran to completion or failed holds no device any more. */
  public boolean terminated() {
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** True when the pod asks for any NVIDIA GPU or MIG instance. */
  public boolean wantsGpus() {
    return gpus > 0 || !migInstances.isEmpty();
  }
}
