package org.rampa.domain.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.SharingCatalog;

class MpsAdmissionTest {

  private static final long GIB = 1L << 30;
  private final GpuPartitioning a100 = SharingCatalog.standard().partitioning("A100-SXM4-80GB");
  private final GpuPartitioning mi100 = SharingCatalog.standard().partitioning("MI100");
  private final MpsAdmission strict = MpsAdmission.strict();

  @Test
  void sharesUpToOneAreAdmittedEvenWithRoundingInTheSum() {
    assertThat(strict.check(a100, Collections.nCopies(10, new MpsShare(0.1, GIB)))).isEmpty();
    assertThat(strict.check(a100, List.of(new MpsShare(0.5, GIB), new MpsShare(0.3, GIB), new MpsShare(0.2, GIB)))).isEmpty();
  }

  @Test
  void computeSumOverOneIsRefusedUnlessOvercommitted() {
    List<Placement> over = List.of(new MpsShare(0.6, GIB), new MpsShare(0.5, GIB));
    assertThat(rule(strict.check(a100, over))).isEqualTo(ShareViolation.Rule.COMPUTE_SUM);
    assertThat(strict.check(a100, over).orElseThrow().message()).contains("sum to 1.1");
    assertThat(new MpsAdmission(0.1).check(a100, over)).isEmpty();
    assertThat(rule(new MpsAdmission(0.05).check(a100, over))).isEqualTo(ShareViolation.Rule.COMPUTE_SUM);
    assertThat(rule(strict.check(mi100, List.of(new CuMask(80, GIB), new CuMask(41, GIB))))).isEqualTo(ShareViolation.Rule.COMPUTE_SUM);
    assertThat(strict.check(mi100, List.of(new CuMask(80, GIB), new CuMask(40, GIB)))).isEmpty();
  }

  @Test
  void clientLimitIs48PerGpu() {
    assertThat(strict.check(a100, Collections.nCopies(48, new MpsShare(1.0 / 48, 0)))).isEmpty();
    assertThat(rule(strict.check(a100, Collections.nCopies(49, new MpsShare(1.0 / 49, 0))))).isEqualTo(ShareViolation.Rule.CLIENT_LIMIT);
  }

  @Test
  void cardMemoryCountsAContextPerProcess() {
    long overhead = a100.mpsProcessOverheadBytes();
    long half = (a100.memoryBytes() - 2 * overhead) / 2;
    assertThat(strict.check(a100, List.of(new MpsShare(0.5, half), new MpsShare(0.5, half)))).isEmpty();
    assertThat(rule(strict.check(a100, List.of(new MpsShare(0.5, half + 1), new MpsShare(0.5, half)))))
        .isEqualTo(ShareViolation.Rule.CARD_MEMORY);
  }

  @Test
  void processesInsideAMigInstanceFitItsMemoryAndAProportionalClientLimit() {
    long instance = 19968L << 20; // 2g.20gb
    long overhead = a100.mpsProcessOverheadBytes();
    long each = instance / 3 - overhead;
    assertThat(strict.check(a100, List.of(new MigSliceMps("2g.20gb", 0, 3, each)))).isEmpty();
    assertThat(rule(strict.check(a100, List.of(new MigSliceMps("2g.20gb", 0, 3, each + 1))))).isEqualTo(ShareViolation.Rule.INSTANCE_MEMORY);
    // 48 * 2 / 7 = 13 clients in a 2g instance
    assertThat(strict.check(a100, List.of(new MigSliceMps("2g.20gb", 0, 13, 0)))).isEmpty();
    assertThat(rule(strict.check(a100, List.of(new MigSliceMps("2g.20gb", 0, 14, 0))))).isEqualTo(ShareViolation.Rule.CLIENT_LIMIT);
  }

  @Test
  void kindsTheCardDoesNotOfferAreNamed() {
    assertThat(rule(strict.check(mi100, List.of(new MpsShare(0.5, 0))))).isEqualTo(ShareViolation.Rule.UNSUPPORTED);
    assertThat(rule(strict.check(a100, List.of(new CuMask(10, 0))))).isEqualTo(ShareViolation.Rule.UNSUPPORTED);
  }

  @Test
  void isolatedAndWholePlacementsAreNotThisRulesBusiness() {
    List<Placement> migOnly = new ArrayList<>(List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4)));
    assertThat(strict.check(a100, migOnly)).isEmpty();
    assertThatThrownBy(() -> new MpsAdmission(-0.1)).hasMessageContaining("mpsAdmission.overcommit = -0.1");
  }

  private static ShareViolation.Rule rule(Optional<ShareViolation> v) {
    return v.orElseThrow(() -> new AssertionError("expected a violation")).rule();
  }
}
