package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `rampa colocate` without a scenario: the E2 experiment on a user's cluster and demand, its files, and redrawing them. */
class ColocateExperimentTest {

  @TempDir
  Path dir;

  @Test
  void writesRawCsvWithSeedsSummaryAndChartsAndRedrawsThem() throws Exception {
    Path cluster = BadInputs.write(dir, "lab.csv", "gpu_type,count\nA100-SXM4-80GB,6\nL4,4\n");
    Path demand = BadInputs.write(dir, "demand.csv", "model,rate,slo_ms,max_batch\nresnet50,400,50,16\nbert-base,200,80,2\nvgg16,100,120,8\n");
    Path out = dir.resolve("out");
    BadInputs.Run run = BadInputs.run("colocate", "--cluster-file", cluster.toString(), "--demand", demand.toString(), "--planners",
        "heuristic,gpu-lets", "--threads", "1", "--time-limit-s", "10", "--out", out.toString());
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("lab, demand-file (MODELLED: analytic tier)", "| heuristic | 1/1 |", "| exclusive | 1/1 | 1.00 |", "best of ours over the strongest baseline");
    List<String> raw = Files.readAllLines(out.resolve("e2.csv"));
    assertThat(raw.get(0)).startsWith("cluster,regime,small_share,batch_cap,seed,services,planner,status,scale,gain_over_exclusive");
    assertThat(raw).hasSize(4);
    assertThat(raw.subList(1, 4)).allSatisfy(l -> assertThat(l).startsWith("lab,demand-file,0.0,128,0,3,"));
    assertThat(out.resolve("e2-summary.csv")).exists();
    assertThat(out.resolve("e2-gain-cluster.png")).exists();
    assertThat(out.resolve("e2-gain-cluster.svg")).exists();

    Path again = dir.resolve("again");
    BadInputs.Run redraw = BadInputs.run("colocate", "--from-csv", out.resolve("e2.csv").toString(), "--out", again.toString());
    assertThat(redraw.code()).as(redraw.err()).isZero();
    assertThat(Files.readString(again.resolve("e2-summary.md"))).isEqualTo(Files.readString(out.resolve("e2-summary.md")));
    assertThat(Files.readString(again.resolve("e2.csv"))).isEqualTo(Files.readString(out.resolve("e2.csv")));
  }
}
