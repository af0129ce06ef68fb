package org.rampa.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.domain.GpuType;
import org.rampa.domain.Layer;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;

class StageCursorTest {

  private static final PerformanceModel PM = PerformanceModel.defaults();

  private static Layer layer(String name, long weights, long out, long working, long state) {
    return Layer.builder().name(name).flopsPerSample(1e9).weightBytes(weights).outputBytesPerSample(out)
        .workingBytesPerSample(working).stateBytesPerSample(state).build();
  }

  @Test
  void memoryAddsWeightsAndStateButOnlyTheLargestWorkingSet() {
    Model model = Model.of("m", List.of(layer("a", 1_000, 10, 300, 20), layer("b", 2_000, 10, 500, 30), layer("c", 4_000, 10, 100, 0)));
    StageCursor stage = PM.cursor(model, 4, 0, List.of());
    assertThat(stage.to()).isZero();
    assertThat(stage.add().memoryBytes()).isEqualTo(1_000 + 4 * (20 + 300));
    assertThat(stage.add().memoryBytes()).isEqualTo(3_000 + 4 * (50 + 500));
    assertThat(stage.add().memoryBytes()).isEqualTo(7_000 + 4 * (50 + 500));
    assertThat(stage.additiveMemoryBytes()).isEqualTo(7_000 + 4 * 50);
    assertThat(stage.canAdd()).isFalse();
    assertThatThrownBy(stage::add).hasMessageContaining("stage.to = 3");
  }

  @Test
  void fitsOnComparesWithTheKindsMemory() {
    GpuType small = RandomInstances.type("small", 1e14, 2_000, 1e12);
    Model model = Model.of("m", List.of(layer("a", 1_000, 10, 100, 0), layer("b", 1_000, 10, 100, 0)));
    StageCursor stage = PM.cursor(model, 1, 0, List.of());
    assertThat(stage.add().fitsOn(new WholeGpu(small))).isTrue();
    assertThat(stage.add().fitsOn(new WholeGpu(small))).isFalse();
  }

  @Test
  void growingAStageAgreesWithTheFormulaAndTheLayerTimesOnEveryRange() {
    Property.forSeeds("cursor = weights + b(state + working), time = sum of layer times", 30, seed -> {
      Random random = new Random(seed);
      List<Layer> layers = new ArrayList<>();
      int size = 1 + random.nextInt(12);
      for (int l = 0; l < size; l++) {
        layers.add(layer("l" + l, random.nextInt(1 << 30), 1 + random.nextInt(1 << 20), random.nextInt(1 << 22), random.nextInt(1 << 20)));
      }
      Model model = Model.of("random-" + seed, layers);
      int batch = 1 + random.nextInt(16);
      List<GpuType> types = RandomInstances.threeTypes();
      List<WholeGpu> kinds = types.stream().map(WholeGpu::new).toList();
      Link link = RandomInstances.network();
      for (int from = 0; from < size; from++) {
        StageCursor stage = PM.cursor(model, batch, from, kinds);
        long weights = 0;
        long state = 0;
        long working = 0;
        double[] seconds = new double[kinds.size()];
        for (int to = from + 1; to <= size; to++) {
          Layer added = model.layer(to - 1);
          weights += added.weightBytes();
          state += added.stateBytesPerSample();
          working = Math.max(working, added.workingBytesPerSample());
          stage.add();
          assertThat(stage.memoryBytes()).isEqualTo(weights + (long) batch * (state + working));
          assertThat(PM.stageMemoryBytes(model, from, to, batch)).isEqualTo(stage.memoryBytes());
          for (int k = 0; k < kinds.size(); k++) {
            seconds[k] += PM.layerSeconds(added, types.get(k), batch);
            assertThat(stage.seconds(k)).isEqualTo(seconds[k]);
            assertThat(PM.stageSeconds(model, from, to, types.get(k), batch)).isEqualTo(seconds[k]);
          }
          double expectedOut = to < size ? link.transferSeconds((double) batch * model.cutBytesPerSample(to)) : 0;
          assertThat(stage.transferOutSeconds(link)).isEqualTo(expectedOut);
        }
      }
    });
  }

  @Test
  void aStageMustStartInsideTheModel() {
    Model model = Model.of("m", List.of(layer("a", 1, 1, 1, 0)));
    assertThatThrownBy(() -> PM.cursor(model, 1, 1, List.of())).hasMessageContaining("stage.from = 1");
    assertThatThrownBy(() -> PM.cursor(model, 0, 0, List.of())).hasMessageContaining("batch = 0");
  }
}
