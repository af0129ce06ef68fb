package org.rampa.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `rampa vastpipe-e3` on two seeds, the heuristic (MIG only) and even-mps-2 (MPS pairs), margins 0
 * and 30 %: the files and their row counts, the replay's own counts agree with the verifier's
 * verdict, γ cannot touch a MIG-only plan, and a 30 % time margin covers the ±20 % law and ±10 %
 * interference perturbations.
 */
class VastPipeE3CommandTest {

  @TempDir
  Path dir;

  @Test
  void replaysEveryPlanUnderTheSameTruthsAndAMarginAboveThePerturbationCoversIt() throws Exception {
    BadInputs.Run r = BadInputs.run("vastpipe-e3", "--out", dir.toString(), "--seeds", "2", "--draws", "3", "--planners", "heuristic,even-mps-2",
        "--margins", "0,30", "--threads", "1", "--time-limit-s", "10");
    assertThat(r.code()).as(r.err()).isZero();
    for (String f : VastPipeE3Command.outputs(org.rampa.colocation.ColocationObjective.MIN_GPUS)) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
    List<String[]> plans = rows("e3-plans.csv");
    assertThat(plans).hasSize(2 * 2 * 2).allSatisfy(p -> assertThat(Integer.parseInt(p[4])).as(String.join(",", p)).isPositive());
    assertThat(plans).filteredOn(p -> p[1].equals("heuristic")).allSatisfy(p -> assertThat(p[5]).isEqualTo("0"));
    assertThat(plans).filteredOn(p -> p[1].equals("even-mps-2")).allSatisfy(p -> assertThat(Integer.parseInt(p[5])).isPositive());
    List<String[]> replays = rows("e3-replays.csv");
    assertThat(replays).hasSize(8 * (3 + 1 + 3 + 3));
    Map<String, String> perturbedHeuristic = new HashMap<>();
    for (String[] c : replays) {
      String row = String.join(",", c);
      boolean holds = Boolean.parseBoolean(c[15]);
      assertThat(holds).as(row).isEqualTo(c[8].equals("0") && c[10].equals("0"));
      if (c[1].equals("heuristic")) {
        if (c[3].equals("gamma-x2")) {
          assertThat(holds).as("a MIG-only plan does not see gamma: " + row).isTrue();
        } else if (c[3].startsWith("perturbed")) {
          String key = c[0] + "/" + c[2] + "/" + c[4];
          String outcome = String.join(",", List.of(c).subList(5, c.length));
          String other = perturbedHeuristic.putIfAbsent(key, outcome);
          if (other != null) {
            assertThat(outcome).as("perturbed and perturbed+gamma-x2 share their draws: " + key).isEqualTo(other);
          }
        }
      }
      if (c[2].equals("0.300") && c[3].equals("perturbed")) {
        assertThat(holds).as(row).isTrue();
        assertThat(Double.parseDouble(c[14])).as(row).isLessThanOrEqualTo(1);
      }
    }
    assertThat(r.out()).contains("heuristic").contains("even-mps-2").contains("perturbed+gamma-x2");
  }

  @Test
  void parvaGpuMixesReplayTheLawsFittedThroughTheMeasurements() throws Exception {
    BadInputs.Run r = BadInputs.run("vastpipe-e3", "--out", dir.toString(), "--family", "parvagpu", "--seeds", "1", "--draws", "2",
        "--planners", "heuristic,uniform-mig-3g", "--margin-kind", "tiers", "--margins", "0,100", "--threads", "1");
    assertThat(r.code()).as(r.err()).isZero();
    List<String[]> plans = rows("e3-plans.csv");
    assertThat(plans).hasSize(4).allSatisfy(p -> assertThat(p[5]).as("MIG only").isEqualTo("0"));
    for (String planner : List.of("heuristic", "uniform-mig-3g")) {
      // the measured tier's default margin costs GPUs, never saves any
      int[] gpus = plans.stream().filter(p -> p[1].equals(planner)).mapToInt(p -> Integer.parseInt(p[4])).toArray();
      assertThat(gpus[1]).isGreaterThanOrEqualTo(gpus[0]);
    }
    List<String[]> replays = rows("e3-replays.csv");
    assertThat(replays).hasSize(4 * (2 + 1 + 2 + 2));
    assertThat(replays).filteredOn(c -> c[3].equals("model-error") && c[2].equals("1.000")).isNotEmpty()
        .allSatisfy(c -> assertThat(c[15]).as("the default margin covers the measured tier's own error: " + String.join(",", c)).isEqualTo("true"));
    assertThat(replays).filteredOn(c -> c[3].equals("gamma-x2")).allSatisfy(c -> assertThat(c[15]).isEqualTo("true"));
    assertThat(replays).filteredOn(c -> c[3].equals("perturbed"))
        .anySatisfy(c -> assertThat(Double.parseDouble(c[14])).as("a perturbed truth moves the measured times").isNotEqualTo(
            Double.parseDouble(replays.stream().filter(g -> g[1].equals(c[1]) && g[2].equals(c[2]) && g[3].equals("gamma-x2")).findFirst().orElseThrow()[14])));
  }

  @Test
  void theLargestScaleObjectiveReplaysEveryRateAtTheClaimedScale() throws Exception {
    BadInputs.Run r = BadInputs.run("vastpipe-e3", "--out", dir.toString(), "--objective", "max-scale", "--gpus", "6", "--seeds", "1",
        "--draws", "2", "--planners", "heuristic,exclusive", "--margins", "0,10", "--threads", "1");
    assertThat(r.code()).as(r.err()).isZero();
    for (String f : VastPipeE3Command.outputs(org.rampa.colocation.ColocationObjective.MAX_SCALE)) {
      assertThat(dir.resolve(f)).isNotEmptyFile();
    }
    double rates = org.rampa.examples.experiment.RobustnessExperiment.mix(org.rampa.examples.experiment.RobustnessExperiment.Family.ANALYTIC, 1)
        .services().stream().mapToDouble(org.rampa.colocation.ColocationService::rate).sum();
    List<String[]> plans = rows("e3-plans.csv");
    assertThat(plans).hasSize(4).allSatisfy(p -> {
      assertThat(Integer.parseInt(p[4])).isBetween(1, 6);
      assertThat(Double.parseDouble(p[6])).isPositive();
    });
    for (String[] c : rows("e3-replays.csv")) {
      assertThat(Double.parseDouble(c[11])).as("demand = rates x claimed scale: " + String.join(",", c))
          .isCloseTo(rates * Double.parseDouble(c[6]), org.assertj.core.data.Percentage.withPercentage(0.01));
    }
  }

  @Test
  void theLearnedPolicyPlansTheFewestGpusAndIsReplayedLikeEveryPlanner() throws Exception {
    BadInputs.Run r = BadInputs.run("vastpipe-e3", "--out", dir.toString(), "--family", "parvagpu", "--seeds", "1", "--draws", "2",
        "--planners", "heuristic,learned", "--margins", "0", "--threads", "1");
    assertThat(r.code()).as(r.err()).isZero();
    List<String[]> plans = rows("e3-plans.csv");
    assertThat(plans).hasSize(2).anySatisfy(p -> {
      assertThat(p[1]).isEqualTo("learned");
      assertThat(Integer.parseInt(p[4])).isPositive();
    });
    assertThat(rows("e3-replays.csv")).filteredOn(c -> c[1].equals("learned")).hasSize(2 + 1 + 2 + 2);
  }

  private List<String[]> rows(String file) throws Exception {
    List<String> lines = Files.readAllLines(dir.resolve(file));
    return lines.subList(1, lines.size()).stream().map(l -> l.split(",", 17)).toList();
  }
}
