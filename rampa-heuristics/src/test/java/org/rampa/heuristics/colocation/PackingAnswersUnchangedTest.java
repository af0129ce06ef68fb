package org.rampa.heuristics.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ParvaGpuScenarios;
import org.rampa.testing.ColocationMixes;

/**
 * The packing planners' answers, fingerprinted (the hash of the plan's text, or of the reason when
 * there is none) from the implementation before the packing's used-slice index and the heuristic's
 * cover tables (commit c7ce2f2): those change the speed only, so every answer must stay the same.
 * A deliberate change of the heuristic's answers re-records these numbers. Process counts are
 * pinned to at most {@value ParvaGpuScenarios#MAX_PROCESSES} per instance (the search space of the
 * recording), so a wider search space in the scenarios does not move the fingerprints.
 */
class PackingAnswersUnchangedTest {

  private static final int[] HEURISTIC_RANDOM_MIXES = {-853943755, -2040765899, 452975918, -1548616369, 1900449761, -970007380, 190895338, 182090017,
      -80748595, 727106164, 381537133, 1125104243, -921374932, 1098245768, 1087811692, -1616464668, -1170440972, 285219515, -83024693, 1048086200,
      -52214090, 1472985649, -71405118, 332621790, -1809887264, 1247548425, -1357499644, 1770597720, -69634264, 900647255, 762992897, 412672029,
      -901217882, -914106135, -418471456, -299905272, 1291658936, 674751355, 998615145, 460987438};

  private static final int[] UNIFORM_MIG_1G_RANDOM_MIXES = {-871668184, -2040765899, 452975918, -2038296066, 1046435304, -970007380, 190895338,
      -411387891, 609013110, 727106164, 381537133, -2011898435, -1474721126, 1098245768, 171606669, 1727630058, -1227671056, 1526476354, -461747635,
      1048086200, -1512972908, -1397298710, -71405118, 332621790, 1602623106, 1777872929, -1357499644, 1770597720, 825083137, 900647255, 762992897,
      412672029, -901217882, -19388734, 139402454, -299905272, 948908532, 643611741, -1329916496, 460987438};

  private static final int[] HEURISTIC_SCENARIOS = {-428792498, -1379458594, 366729872, -1792168461, 1258062040, 369064999};

  /** 10, 20 and 40 services at 1000 GPUs (seed 0 of each size of the timed example): 803, 758 and 875 GPUs. */
  private static final int[] HEURISTIC_AT_SCALE = {-1354232017, 816039399, 1144626692};

  @Test
  void randomMixes() {
    for (int seed = 0; seed < HEURISTIC_RANDOM_MIXES.length; seed++) {
      ColocationProblem p = RandomMixes.of(seed);
      assertThat(fingerprint("heuristic", p)).as("heuristic, mix " + seed).isEqualTo(HEURISTIC_RANDOM_MIXES[seed]);
      assertThat(fingerprint("uniform-mig-1g", p)).as("uniform-mig-1g, mix " + seed).isEqualTo(UNIFORM_MIG_1G_RANDOM_MIXES[seed]);
    }
  }

  @Test
  void parvaGpuScenariosAndClusterScale() {
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      assertThat(fingerprint("heuristic", ParvaGpuScenarios.scenario(k, 1000, ColocationObjective.MIN_GPUS))).as("scenario " + k)
          .isEqualTo(HEURISTIC_SCENARIOS[k - 1]);
    }
    int[] sizes = {10, 20, 40};
    for (int i = 0; i < sizes.length; i++) {
      assertThat(fingerprint("heuristic", ColocationMixes.parvaGpuAtScale(sizes[i], 1000L * sizes[i]))).as(sizes[i] + " services")
          .isEqualTo(HEURISTIC_AT_SCALE[i]);
    }
  }

  private static int fingerprint(String planner, ColocationProblem p) {
    List<ColocationService> pinned = p.services().stream().map(s -> new ColocationService(s.id(), s.model(), s.batches(),
        s.processCounts().stream().filter(c -> c <= ParvaGpuScenarios.MAX_PROCESSES).toList(), s.rate(), s.slo(), s.processMemoryBytes(), s.weight())).toList();
    ColocationProblem q = new ColocationProblem(pinned, p.pools(), p.timeModel(), p.interference(), p.sloRule(), p.admission(), p.objective());
    // a generous limit: the local search stops at the deadline, and a cut-short search would change the answer
    ColocationResult r = ColocationPlanners.named(planner).plan(q, Duration.ofSeconds(60));
    return r.plan().map(Object::toString).orElse(r.reason()).hashCode();
  }
}
