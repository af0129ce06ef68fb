package org.rampa.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.LinearInterference;
import org.rampa.perf.share.ScaledInterference;
import org.rampa.verify.Violation;
import org.rampa.verify.Violation.Kind;

/**
 * CU masks in the co-location menu and in the verifier: the menu prices masks of 1, 2 and 4 eighths
 * of an MI100's 120 CUs for every number of masks sharing the card (α = 1 + γ × co-runners under the
 * default linear model), offers none where the type has no CU masking or the interference model is
 * not a function of the co-runner count, and keeps a mask's reservation within its eighths of the
 * card's memory; the verifier refuses masks that over-subscribe the CUs or the memory, exceed the
 * card, sit on a type without CU masking, share a card with a whole holding, or reserve less than
 * their process needs, each with its typed violation.
 */
class CuMaskMenuTest {

  private static final GpuPool MI100 = new GpuPool(GpuCatalog.standard().type("MI100"), SharingCatalog.standard().partitioning("MI100"), 4);
  private static final GpuPool A100 = new GpuPool(GpuCatalog.standard().type("A100-SXM4-80GB"),
      SharingCatalog.standard().partitioning("A100-SXM4-80GB"), 4);

  private static ColocationService service(String id, long memory) {
    return new ColocationService(id, ModelCatalog.model("resnet50"), List.of(1, 4), List.of(1), 100, Duration.ofMillis(200), memory, 1);
  }

  private static ColocationProblem problem(List<GpuPool> pools, InterferenceModel interference, ColocationService... services) {
    return new ColocationProblem(List.of(services), pools, AnalyticShareTimeModel.calibrated(), interference, SloRule.parvaGpu(),
        MpsAdmission.strict(), ColocationObjective.MAX_SCALE);
  }

  @Test
  void masksArePricedForEveryNumberOfMasksSharingTheCard() {
    ColocationProblem p = problem(List.of(MI100), InterferenceModel.defaults(), service("r", 1L << 30));
    SegmentMenu menu = SegmentMenu.of(p);
    List<SegmentOption> options = menu.cuMaskOptions("MI100", "r");
    // 1, 2 and 4 eighths of 120 CUs, for 1..8, 1..7 and 1..5 masks on the card, at batches 1 and 4
    assertThat(options).hasSize((8 + 7 + 5) * 2);
    assertThat(options).extracting(o -> o.cuMask().computeUnits()).containsOnly(15, 30, 60);
    double gamma = LinearInterference.DEFAULT_GAMMA;
    for (SegmentOption o : options) {
      assertThat(o.placementAt(0)).isEqualTo(new CuMask(o.cuMask().computeUnits(), 1L << 30));
      // alone on the card the same mask serves (1 + γ (n − 1)) times as much
      SegmentOption alone = options.stream()
          .filter(x -> x.cuMask().eighths() == o.cuMask().eighths() && x.cuMask().tenants() == 1 && x.batch() == o.batch()).findFirst().orElseThrow();
      assertThat(alone.throughput() / o.throughput()).isCloseTo(1 + gamma * (o.cuMask().tenants() - 1), within(1e-9));
    }
    assertThat(menu.cuMaskOptionsForAnyCard("MI100", "r")).extracting(o -> o.cuMask().tenants()).containsOnly(8, 7, 5);
    assertThat(menu.best("MI100", "r", CuMaskPart.name(60, 2))).map(o -> o.cuMask().eighths()).contains(4);
    // the isolated menu is unchanged: CU masks are contended and listed apart
    assertThat(menu.options("MI100", "r")).allMatch(o -> o.cuMask() == null);
  }

  @Test
  void noMasksWithoutCuMaskingOrUnderAnInterferenceModelThatIsNotACountOfCoRunners() {
    ColocationProblem a100 = problem(List.of(A100, MI100), InterferenceModel.defaults(), service("r", 1L << 30));
    assertThat(SegmentMenu.of(a100).cuMaskOptions("A100-SXM4-80GB", "r")).isEmpty();
    assertThat(SegmentMenu.of(a100).cuMaskOptions("MI100", "r")).isNotEmpty();
    ColocationProblem scaled = problem(List.of(MI100), new ScaledInterference(InterferenceModel.defaults(), java.util.Map.of(), 1.5), service("r", 1L << 30));
    assertThat(SegmentMenu.of(scaled).cuMaskOptions("MI100", "r")).isEmpty();
  }

  @Test
  void aMaskReservesAtMostItsEighthsOfTheCardsMemory() {
    long card = SharingCatalog.standard().partitioning("MI100").memoryBytes();
    // a process of a fifth of the card fits a quarter (2 eighths) or half, not an eighth
    ColocationProblem p = problem(List.of(MI100), InterferenceModel.defaults(), service("big", card / 5));
    assertThat(SegmentMenu.of(p).cuMaskOptions("MI100", "big")).extracting(o -> o.cuMask().eighths()).containsOnly(2, 4);
  }

  @Test
  void theVerifierRefusesIllegalMasksWithTheirKinds() {
    ColocationService r = service("r", 1L << 30);
    ColocationProblem p = problem(List.of(MI100, A100), InterferenceModel.defaults(), r);
    long gib = 1L << 30;
    // legal: 60 + 30 + 30 of 120 CUs
    assertThat(kinds(p, "MI100", mask(60, gib), mask(30, gib), mask(30, gib))).isEmpty();
    // over-subscribed CUs: masks may not overlap, so they sum to at most the card's 120
    assertThat(kinds(p, "MI100", mask(80, gib), mask(60, gib))).containsExactly(Kind.MPS_ADMISSION);
    // more CUs than the card has
    assertThat(kinds(p, "MI100", mask(121, gib))).containsExactly(Kind.PLACEMENT);
    // a type without CU masking
    assertThat(kinds(p, "A100-SXM4-80GB", mask(30, gib))).containsExactly(Kind.PLACEMENT);
    // reservations beyond the card's memory
    long card = MI100.partitioning().memoryBytes();
    assertThat(kinds(p, "MI100", mask(30, card / 2 + 1), mask(30, card / 2 + 1))).containsExactly(Kind.MPS_ADMISSION);
    // a mask beside a whole holding
    assertThat(kinds(p, "MI100", mask(30, gib), new Segment("r", new Whole(), 1))).containsExactly(Kind.SHARING_MODE);
    // a reservation below what the process needs
    assertThat(kinds(p, "MI100", mask(30, gib / 2))).containsExactly(Kind.MEMORY);
    assertThatThrownBy(() -> new CuMask(0, gib)).hasMessageContaining("cuMask.computeUnits");
  }

  private static Segment mask(int cus, long memory) {
    return new Segment("r", new CuMask(cus, memory), 1);
  }

  private static List<Kind> kinds(ColocationProblem p, String type, Segment... segments) {
    return ColocationVerifier.check(p, new ColocationPlan(List.of(new GpuConfiguration(type, List.of(segments))), 0)).stream().map(Violation::kind).toList();
  }
}
