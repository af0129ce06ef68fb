package org.rampa.heuristics.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.perf.TransferMode;
import org.rampa.split.LayerCostTable;
import org.rampa.split.PeriodSplitter;
import org.rampa.split.SplitProblem;
import org.rampa.split.SplitResult;
import org.rampa.split.TensorTransfer;

class MinPeriodDynamicProgramTest {

  private final PeriodSplitter dp = PeriodSplitters.exact();

  @Test
  void equalsBruteForceOnRandomSmallInstances() {
    for (long seed = 1; seed <= 600; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      SplitProblem problem = randomProblem(r);
      double expected = SplitBruteForce.period(problem);
      SplitResult got = dp.split(problem);
      String msg = "seed " + seed + ", problem " + problem;
      if (expected == Double.POSITIVE_INFINITY) {
        assertThat(got.feasible()).as(msg).isFalse();
        assertThat(got.reason()).as(msg).isNotBlank();
      } else {
        assertThat(got.feasible()).as(msg).isTrue();
        assertThat(got.period()).as(msg).isCloseTo(expected, within(1e-9));
        // the returned stages really achieve the reported period
        assertThat(SplitBruteForce.periodOf(problem, got.stages())).as(msg).isCloseTo(got.period(), within(1e-9));
      }
    }
  }

  @Test
  void identicalDevicesUseAtMostNStagesAndBalanceAChain() {
    LayerCostTable table = new LayerCostTable("ms",
        Map.of("gpu", List.of(4.0, 4.0, 4.0, 4.0)), List.of(0.0, 0.0, 0.0, 0.0, 0.0),
        List.of(0L, 0L, 0L, 0L), List.of(0L, 0L, 0L, 0L), List.of());
    SplitResult two = dp.split(SplitProblem.identical(table, "gpu", 2, TransferMode.NONE));
    assertThat(two.period()).isEqualTo(8.0);
    assertThat(two.ranges()).containsExactly(new int[] {0, 2}, new int[] {2, 4});
    SplitResult six = dp.split(SplitProblem.identical(table, "gpu", 6, TransferMode.NONE));
    assertThat(six.period()).isEqualTo(4.0);
    assertThat(six.stages()).hasSize(4);
  }

  @Test
  void serialTransfersChargeEachTensorOnceOnSenderAndOnceOnEachReceiver() {
    // layer 0 feeds layers 1 and 2 (cost 1); a cut after 0 puts 1 and 2 on one device, so the
    // tensor is received once there, not twice
    LayerCostTable table = LayerCostTable.withTensors("ms", Map.of("d", List.of(5.0, 2.0, 2.0)),
        List.of(0L, 0L, 0L), List.of(new TensorTransfer(0, List.of(1, 2), 1.0), new TensorTransfer(1, List.of(2), 0.5)));
    SplitResult r = dp.split(SplitProblem.identical(table, "d", 2, TransferMode.SERIAL));
    assertThat(r.period()).isEqualTo(6.0);
    assertThat(r.ranges()).containsExactly(new int[] {0, 1}, new int[] {1, 3});
  }

  @Test
  void memoryCapMakesASplitInfeasibleWithAReason() {
    LayerCostTable table = new LayerCostTable("s", Map.of("d", List.of(1.0, 1.0)), List.of(0.0, 0.0, 0.0),
        List.of(10L, 30L), List.of(0L, 0L), List.of());
    SplitResult r = dp.split(SplitProblem.identical(table, "d", 2, TransferMode.NONE).withMemoryCap(20));
    assertThat(r.feasible()).isFalse();
    assertThat(r.reason()).contains("layer 1 alone needs 30 B");
  }

  static SplitProblem randomProblem(SplittableRandom r) {
    int layers = 1 + r.nextInt(8);
    int kinds = 1 + r.nextInt(3);
    Map<String, List<Double>> times = new LinkedHashMap<>();
    for (int k = 0; k < kinds; k++) {
      List<Double> t = new ArrayList<>();
      for (int l = 0; l < layers; l++) {
        t.add((double) r.nextInt(20));
      }
      times.put("k" + k, t);
    }
    List<Long> memory = new ArrayList<>();
    List<Long> peak = new ArrayList<>();
    for (int l = 0; l < layers; l++) {
      memory.add((long) r.nextInt(10));
      peak.add((long) r.nextInt(6));
    }
    LayerCostTable table;
    boolean tensors = r.nextBoolean();
    if (tensors) {
      List<TensorTransfer> list = new ArrayList<>();
      for (int p = 0; p < layers - 1; p++) {
        List<Integer> consumers = new ArrayList<>();
        consumers.add(p + 1);
        for (int c = p + 2; c < layers; c++) {
          if (r.nextInt(4) == 0) {
            consumers.add(c);
          }
        }
        list.add(new TensorTransfer(p, consumers, r.nextInt(6)));
      }
      table = LayerCostTable.withTensors("ms", times, memory, list);
    } else {
      List<Double> cuts = new ArrayList<>();
      for (int c = 0; c <= layers; c++) {
        cuts.add(c == 0 || c == layers ? 0.0 : r.nextInt(8));
      }
      table = new LayerCostTable("ms", times, cuts, memory, peak, List.of());
    }
    int devices = 1 + r.nextInt(5);
    List<String> seq = new ArrayList<>();
    for (int d = 0; d < devices; d++) {
      seq.add("k" + r.nextInt(kinds));
    }
    TransferMode mode = TransferMode.values()[r.nextInt(3)];
    SplitProblem p = new SplitProblem(table, seq, r.nextBoolean(), mode, List.of());
    if (r.nextBoolean()) {
      List<Long> caps = new ArrayList<>();
      for (int d = 0; d < devices; d++) {
        caps.add((long) (5 + r.nextInt(40)));
      }
      p = p.withMemoryCaps(caps);
    }
    return p;
  }

}
