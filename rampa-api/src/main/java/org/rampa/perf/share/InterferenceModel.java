package org.rampa.perf.share;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import org.rampa.domain.GpuType;

/**
 * How much co-runners slow a stage on a shared GPU (docs/SHARING.md section 3): the stage's time is
 * multiplied by {@code α ≥ 1}. Hardware-isolated placements (MIG, NPU templates) see no
 * interference under every model here: their co-runners cannot reach their SMs or memory slices.
 *
 * <p>JSON names the model in a {@code "model"} property from this fixed list, never a class name.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "model")
@JsonSubTypes({
  @JsonSubTypes.Type(value = NoInterference.class, name = "none"),
  @JsonSubTypes.Type(value = LinearInterference.class, name = "linear"),
  @JsonSubTypes.Type(value = GpuLetsInterference.class, name = "gpu-lets"),
  @JsonSubTypes.Type(value = BandwidthOverflow.class, name = "bandwidth-overflow"),
  @JsonSubTypes.Type(value = PairTableInterference.class, name = "pair-table"),
  @JsonSubTypes.Type(value = ScaledInterference.class, name = "scaled")
})
public sealed interface InterferenceModel
    permits NoInterference, LinearInterference, GpuLetsInterference, BandwidthOverflow, PairTableInterference, ScaledInterference {

  /** α ≥ 1 for {@code self} sharing a GPU of {@code type} with {@code others}. */
  double slowdown(GpuType type, CoRunner self, List<CoRunner> others);

  /** The default: linear with γ = 0.05 per contended co-runner (iGniter's V100 pairs), none under isolation. */
  static InterferenceModel defaults() {
    return new LinearInterference(LinearInterference.DEFAULT_GAMMA);
  }

  /** The co-runners that can interfere with {@code self}: none when it is isolated, else the contended ones. */
  static List<CoRunner> contending(CoRunner self, List<CoRunner> others) {
    if (self.placement().isolated()) {
      return List.of();
    }
    return others.stream().filter(o -> !o.placement().isolated()).toList();
  }
}
