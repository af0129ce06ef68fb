package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One layer or block of a model, with the numbers the performance model needs per sample.
 *
 * <p>{@link #inputs()} lists the indices of the earlier layers whose outputs this layer consumes
 * (skip connections, encoder-decoder links); empty means "the previous layer", the common chain,
 * and {@link #MODEL_INPUT} (-1) stands for the model's own input, fed from outside (a second data
 * source in the middle of a graph consumes no earlier layer: its inputs are {@code [-1]}).
 */
@Value.Immutable
@JsonSerialize(as = ImmutableLayer.class)
@JsonDeserialize(as = ImmutableLayer.class)
public abstract class Layer {

  /** In {@link #inputs()}: the model's own input rather than an earlier layer. */
  public static final int MODEL_INPUT = -1;

  public abstract String name();

  public abstract double flopsPerSample();

  public abstract long weightBytes();

  /** Bytes of this layer's output for one sample: what a stage cut after it must ship. */
  public abstract long outputBytesPerSample();

  /** Transient working memory per sample while the layer runs; defaults to its output size. */
  @Value.Default
  public long workingBytesPerSample() {
    return outputBytesPerSample();
  }

  /** Memory per sample the layer keeps for the whole request (a KV cache); summed over a stage. */
  @Value.Default
  public long stateBytesPerSample() {
    return 0;
  }

  /** Indices of earlier layers this layer consumes ({@link #MODEL_INPUT} for the model's input); empty = the preceding layer. */
  public abstract List<Integer> inputs();

  /** Measured latencies per GPU type; they override the roofline for that type. */
  public abstract List<LatencyProfile> profiles();

  public final Optional<LatencyProfile> profileFor(String gpuType) {
    for (LatencyProfile p : profiles()) {
      if (p.gpuType().equals(gpuType)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("layer.name", name());
    String p = "layer[" + name() + "].";
    Invalid.requireFiniteNonNegative(p + "flopsPerSample", flopsPerSample());
    Invalid.requireNonNegative(p + "weightBytes", weightBytes());
    Invalid.requireNonNegative(p + "outputBytesPerSample", outputBytesPerSample());
    Invalid.requireNonNegative(p + "workingBytesPerSample", workingBytesPerSample());
    Invalid.requireNonNegative(p + "stateBytesPerSample", stateBytesPerSample());
    for (int i = 0; i < profiles().size(); i++) {
      for (int j = 0; j < i; j++) {
        if (profiles().get(i).gpuType().equals(profiles().get(j).gpuType())) {
          throw Invalid.value(p + "profiles.gpuType", profiles().get(i).gpuType(), "at most one profile per GPU type");
        }
      }
    }
  }

  public static ImmutableLayer.Builder builder() {
    return ImmutableLayer.builder();
  }
}
