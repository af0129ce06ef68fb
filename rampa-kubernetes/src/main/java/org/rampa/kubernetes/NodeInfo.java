package org.rampa.kubernetes;

import java.util.Map;
import java.util.Optional;

/**
 * The GPU facts of one Kubernetes node, as NVIDIA's GPU feature discovery labels and the device
 * plugin's allocatable resources state them: {@code nvidia.com/gpu.product}, {@code
 * nvidia.com/gpu.count}, {@code nvidia.com/gpu.memory} (MiB), allocatable {@code nvidia.com/gpu}
 * (whole GPUs; under the "mixed" MIG strategy the GPUs not in MIG mode) and {@code
 * nvidia.com/mig-<profile>} per MIG profile. Only these fields decide the RAMPA cluster, so two
 * infos that are equal give the same cluster.
 *
 * @param product empty on a node without the label (no GPUs, or no feature discovery)
 * @param gpuCount from {@code nvidia.com/gpu.count}; empty when the label is absent
 * @param memoryMiB from {@code nvidia.com/gpu.memory}; empty when the label is absent
 * @param wholeGpus allocatable {@code nvidia.com/gpu}; empty when not advertised
 * @param migInstances allocatable {@code nvidia.com/mig-<profile>} by profile name ({@code 3g.40gb})
 * @param schedulable false when {@code spec.unschedulable} is set
 */
public record NodeInfo(
    String name,
    Optional<String> product,
    Optional<Integer> gpuCount,
    Optional<Long> memoryMiB,
    Optional<Integer> wholeGpus,
    Map<String, Integer> migInstances,
    boolean schedulable) {

  public NodeInfo {
    migInstances = Map.copyOf(migInstances);
  }
}
