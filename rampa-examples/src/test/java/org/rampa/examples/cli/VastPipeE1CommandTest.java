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
import org.rampa.colocation.ParvaGpuScenarios;
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
    BadInputs.Run r = BadInputs.run("vastpipe-e1", "--out", dir.toString(), "--mixes", "1");
    assertThat(r.code()).as(r.err()).isZero();
    for (String f : VastPipeE1Command.OUTPUTS) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
    List<String> lines = Files.readAllLines(dir.resolve("e1.csv"));
    assertThat(lines).hasSize(1 + ParvaGpuScenarios.BATCHES.size() + 1);
    int compared = 0;
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",", 8);
      assertThat(c[3]).isEqualTo("bert+densenet121");
      assertThat(c[6]).as(line).isEqualTo("OPTIMAL");
      if (!c[0].equals("batch")) {
        continue;
      }
      int batch = Integer.parseInt(c[1]);
      String[] exclusive = c[4].split("\\+");
      double gain = Double.parseDouble(c[5]);
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

  private static Optional<List<SegmentPerformance>> throughputs(int batch, List<Segment> segments) {
    List<ColocationService> services = segments.stream()
        .map(s -> ParvaGpuScenarios.service(s.service(), List.of(batch), 1, Duration.ofHours(1))).toList();
    ColocationProblem problem = ParvaGpuScenarios.problem(services, 1, ColocationObjective.MAX_SCALE);
    return ColocationPerformance.evaluate(problem, new GpuConfiguration(ParvaGpuScenarios.GPU_TYPE, segments));
  }
}
