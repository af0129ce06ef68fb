package org.rampa.domain.share;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * One MIG GPU-instance profile of one GPU type, as NVML lists it: its compute and memory slices,
 * the SMs it really gets (from {@code nvidia-smi mig -lgip}, not {@code g/7}), its memory, and the
 * memory slices it may start at. {@code source} and {@code confidence} say where the numbers come
 * from; "UNVERIFIED" in them is kept from the reference data.
 */
public record MigProfile(
    String name,
    int computeSlices,
    int memorySlices,
    int smCount,
    long memoryBytes,
    List<Integer> allowedStarts,
    int maxInstances,
    String confidence,
    String source) {

  public MigProfile {
    Invalid.requireNonBlank("migProfile.name", name);
    String p = "migProfile[" + name + "].";
    requirePositive(p + "computeSlices", computeSlices);
    requirePositive(p + "memorySlices", memorySlices);
    requirePositive(p + "smCount", smCount);
    if (memoryBytes <= 0) {
      throw Invalid.value(p + "memoryBytes", memoryBytes, "must be > 0");
    }
    allowedStarts = Invalid.listOf("migProfile[" + name + "].allowedStarts", allowedStarts);
    if (allowedStarts.isEmpty()) {
      throw Invalid.value(p + "allowedStarts", allowedStarts, "must name at least one start memory slice");
    }
    for (int s : allowedStarts) {
      Invalid.requireNonNegative(p + "allowedStarts", s);
    }
    requirePositive(p + "maxInstances", maxInstances);
  }

  private static void requirePositive(String field, int value) {
    if (value < 1) {
      throw Invalid.value(field, value, "must be >= 1");
    }
  }
}
