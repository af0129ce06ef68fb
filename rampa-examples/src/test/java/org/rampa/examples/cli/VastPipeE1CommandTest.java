package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.domain.share.MigSlice;

/**
 * `rampa vastpipe-e1` on its first mix (BERT + DenseNet-121): every batch row's exclusive
 * throughput equals the measured 7g instance alone, evaluated here without the experiment's menu,
 * and its gain is at least that of a hand-built co-location (3g + 3g, one process each).
 */
class VastPipeE1CommandTest {

  @TempDir
  Path dir;

  @Test
  void firstMixBeatsAHandBuiltSplitAndPricesExclusiveFromTheTables() throws Exception {
    BadInputs.Run r = BadInputs.run("vastpipe-e1", "--out", dir.toString(), "--mixes", "1", "--source", "parvagpu");
    assertThat(r.code()).as(r.err()).isZero();
    for (String f : List.of("e1.csv", "e1-summary.csv", "e1-gain.png", "e1-gain.svg")) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
    List<String> lines = Files.readAllLines(dir.resolve("e1.csv"));
    assertThat(lines).hasSize(1 + ParvaGpuScenarios.BATCHES.size() + 1);
    int compared = 0;
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",", 12);
      assertThat(c[0] + "," + c[1] + "," + c[2] + "," + c[3]).isEqualTo("parvagpu,A100-SXM4-80GB,measured,");
      assertThat(c[7]).isEqualTo("bert+densenet121");
      assertThat(c[10]).as(line).isEqualTo("OPTIMAL");
      if (!c[4].equals("batch")) {
        continue;
      }
      int batch = Integer.parseInt(c[5]);
      String[] exclusive = c[8].split("\\+");
      double gain = Double.parseDouble(c[9]);
      List<String> mix = List.of("bert", "densenet121");
      List<Double> x = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        double alone = throughputs(batch, List.of(new Segment(mix.get(i), new MigSlice("7g.80gb", 0), batch))).orElseThrow().get(0).throughput();
        assertThat(Double.parseDouble(exclusive[i])).as(line).isCloseTo(alone, org.assertj.core.data.Percentage.withPercentage(0.01));
        x.add(alone);
      }
      Optional<List<SegmentPerformance>> split = throughputs(batch,
          List.of(new Segment("bert", new MigSlice("3g.40gb", 0), batch), new Segment("densenet121", new MigSlice("3g.40gb", 4), batch)));
      if (split.isPresent()) {
        double z = Math.min(split.get().get(0).throughput() / (x.get(0) / 2), split.get().get(1).throughput() / (x.get(1) / 2));
        assertThat(gain).as(line).isGreaterThanOrEqualTo(z * (1 - 1e-9));
        compared++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(6);
  }

  /**
   * MuxServe's first mix (LLaMA-7B prefill + decode) at every γ: exclusive throughput is batch /
   * MuxServe's measured 100 % time, every row is labelled with its tier, a larger γ never raises
   * the gain, and the charts of the source and of γ are written.
   */
  @Test
  void muxServeRowsPriceExclusiveFromTheMeasuredWholeGpuAndLabelTheirTier() throws Exception {
    BadInputs.Run r = BadInputs.run("vastpipe-e1", "--out", dir.toString(), "--mixes", "1", "--source", "muxserve");
    assertThat(r.code()).as(r.err()).isZero();
    for (String f : List.of("e1.csv", "e1-summary.csv", "e1-gain-muxserve.png", "e1-gain-muxserve.svg", "e1-gamma.png", "e1-gamma.svg")) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
    List<String> lines = Files.readAllLines(dir.resolve("e1.csv"));
    assertThat(lines).hasSize(1 + 3 * (ParvaGpuScenarios.BATCHES.size() + 1));
    java.util.Map<String, Double> gainAtLowestGamma = new java.util.HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",", 12);
      assertThat(c[0] + "," + c[1] + "," + c[2]).isEqualTo("muxserve,A100-SXM4-80GB,measured-times-modelled-interference");
      assertThat(c[7]).isEqualTo("llama-7b-prefill-512+llama-7b-decode-512");
      if (c[4].equals("batch") && c[5].equals("1")) {
        // MuxServe, llama-7b, 1 GPU, 100 %, batch 1, 512 tokens: prefill 41.027 ms, decoding 12.484 ms
        assertThat(c[8]).isEqualTo(String.format(java.util.Locale.ROOT, "%.3f+%.3f", 1 / 0.041027, 1 / 0.012484));
      }
      if (c[9].isEmpty()) {
        continue;
      }
      double gain = Double.parseDouble(c[9]);
      String key = c[4] + c[5];
      if (c[3].equals("0.03")) {
        gainAtLowestGamma.put(key, gain);
      } else {
        assertThat(gain).as(line).isLessThanOrEqualTo(gainAtLowestGamma.get(key));
      }
    }
    assertThat(gainAtLowestGamma).hasSizeGreaterThanOrEqualTo(7);
  }

  private static Optional<List<SegmentPerformance>> throughputs(int batch, List<Segment> segments) {
    List<ColocationService> services = segments.stream()
        .map(s -> ParvaGpuScenarios.service(s.service(), List.of(batch), 1, Duration.ofHours(1))).toList();
    ColocationProblem problem = ParvaGpuScenarios.problem(services, 1, ColocationObjective.MAX_SCALE);
    return ColocationPerformance.evaluate(problem, new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, segments));
  }
}
