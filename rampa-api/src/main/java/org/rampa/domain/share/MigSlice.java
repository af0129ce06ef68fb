package org.rampa.domain.share;

import org.rampa.domain.Invalid;

/**
 * One MIG instance of a profile ("3g.40gb") at a start memory slice. Compute is the profile's SM
 * count over the card's, bandwidth its memory slices over the card's, memory the profile's.
 */
public record MigSlice(String profile, int start) implements Placement {

  public MigSlice {
    Invalid.requireNonBlank("mig.profile", profile);
    Invalid.requireNonNegative("mig.start", start);
  }

  @Override
  public double computeFraction(GpuPartitioning gpu) {
    return gpu.requireMig().computeFraction(gpu.requireMig().profile(profile));
  }

  @Override
  public double bandwidthFraction(GpuPartitioning gpu) {
    return gpu.requireMig().bandwidthFraction(gpu.requireMig().profile(profile));
  }

  @Override
  public double shareEquivalent(GpuPartitioning gpu) {
    return gpu.requireMig().shareEquivalent(gpu.requireMig().profile(profile));
  }

  @Override
  public long memoryBytes(GpuPartitioning gpu) {
    return gpu.requireMig().profile(profile).memoryBytes();
  }

  @Override
  public boolean isolated() {
    return true;
  }

  @Override
  public void requireOn(GpuPartitioning gpu) {
    gpu.requireMig().requireStart(profile, start);
  }

  @Override
  public String label() {
    return profile + "@" + start;
  }

  /** The instance {@code text} names as its {@link #label()} does, {@code PROFILE@START}; refused naming {@code field} otherwise. */
  public static MigSlice parse(String field, String text) {
    int at = text.lastIndexOf('@');
    if (at <= 0 || at == text.length() - 1) {
      throw Invalid.value(field, text, "must be PROFILE@START", "3g.40gb@4");
    }
    try {
      return new MigSlice(text.substring(0, at), Integer.parseInt(text.substring(at + 1)));
    } catch (NumberFormatException e) {
      throw Invalid.value(field, text, "has a start that is not a whole number", "3g.40gb@4");
    }
  }
}
