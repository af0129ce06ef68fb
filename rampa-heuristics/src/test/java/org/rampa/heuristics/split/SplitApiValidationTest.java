package org.rampa.heuristics.split;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.perf.TransferMode;
import org.rampa.split.LayerCostTable;
import org.rampa.split.SplitProblem;
import org.rampa.split.TensorTransfer;

/** Bad input to the splitting API fails fast, naming the field, the value and the rule. */
class SplitApiValidationTest {

  private static final LayerCostTable TABLE = new LayerCostTable("ms", Map.of("d", List.of(1.0, 2.0)),
      List.of(0.0, 1.0, 0.0), List.of(1L, 1L), List.of(0L, 0L), List.of());

  @Test
  void tableSizesMustAgree() {
    assertThatThrownBy(() -> new LayerCostTable("ms", Map.of("d", List.of(1.0)), List.of(0.0, 1.0, 0.0),
        List.of(1L, 1L), List.of(0L, 0L), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("costTable.layerTimes[d].size = 1");
    assertThatThrownBy(() -> new LayerCostTable("ms", Map.of("d", List.of(1.0, 2.0)), List.of(0.0, 0.0),
        List.of(1L, 1L), List.of(0L, 0L), List.of()))
        .hasMessageContaining("costTable.cutTimes.size = 2").hasMessageContaining("Maybe");
  }

  @Test
  void tensorsMustReadLaterLayersAndMatchTheCutTimes() {
    assertThatThrownBy(() -> new TensorTransfer(2, List.of(1), 1.0)).hasMessageContaining("tensor[2].consumers");
    assertThatThrownBy(() -> new LayerCostTable("ms", Map.of("d", List.of(1.0, 2.0)), List.of(0.0, 5.0, 0.0),
        List.of(1L, 1L), List.of(0L, 0L), List.of(new TensorTransfer(0, List.of(1), 1.0))))
        .hasMessageContaining("costTable.cutTimes[1] = 5.0").hasMessageContaining("Maybe build the table with LayerCostTable.withTensors");
  }

  @Test
  void devicesMustBeKnownKindsAndCapsOnePerDevice() {
    assertThatThrownBy(() -> SplitProblem.onDevices(TABLE, List.of("gpu"), TransferMode.NONE))
        .hasMessageContaining("split.devices[0] = gpu").hasMessageContaining("Maybe known kinds: [d]");
    assertThatThrownBy(() -> SplitProblem.onDevices(TABLE, List.of("d", "d"), TransferMode.NONE).withMemoryCaps(List.of(1L)))
        .hasMessageContaining("split.memoryCaps.size = 1");
    assertThatThrownBy(() -> SplitProblem.identical(TABLE, "d", 0, TransferMode.NONE)).hasMessageContaining("split.deviceCount = 0");
  }
}
