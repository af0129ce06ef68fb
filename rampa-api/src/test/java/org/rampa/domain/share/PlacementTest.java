package org.rampa.domain.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.SharingCatalog;
import org.rampa.json.JsonInputException;
import org.rampa.json.RampaJson;
import org.rampa.testing.Property;

class PlacementTest {

  private static final long GIB = 1L << 30;
  private final SharingCatalog catalog = SharingCatalog.standard();
  private final GpuPartitioning a100 = catalog.partitioning("A100-SXM4-80GB");
  private final GpuPartitioning mi100 = catalog.partitioning("MI100");
  private final GpuPartitioning npu = catalog.partitioning("NPU-8C-64GB");

  @Test
  void wholeIsTheCard() {
    Placement whole = new Whole();
    assertThat(whole.computeFraction(a100)).isEqualTo(1);
    assertThat(whole.bandwidthFraction(a100)).isEqualTo(1);
    assertThat(whole.memoryBytes(a100)).isEqualTo(80 * GIB);
    assertThat(whole.isolated()).isFalse();
  }

  @Test
  void migSliceParsesItsOwnLabelAndRefusesOtherText() {
    for (MigProfile profile : a100.requireMig().profiles()) {
      for (int start : profile.allowedStarts()) {
        MigSlice slice = new MigSlice(profile.name(), start);
        assertThat(MigSlice.parse("layout", slice.label())).isEqualTo(slice);
      }
    }
    assertThatThrownBy(() -> MigSlice.parse("layout", "3g.40gb")).hasMessage("layout = 3g.40gb: must be PROFILE@START. Maybe 3g.40gb@4");
    assertThatThrownBy(() -> MigSlice.parse("layout", "@4")).hasMessageContaining("must be PROFILE@START");
    assertThatThrownBy(() -> MigSlice.parse("layout", "3g.40gb@")).hasMessageContaining("must be PROFILE@START");
    assertThatThrownBy(() -> MigSlice.parse("layout", "3g.40gb@four")).hasMessage(
        "layout = 3g.40gb@four: has a start that is not a whole number. Maybe 3g.40gb@4");
    assertThatThrownBy(() -> MigSlice.parse("layout", "3g.40gb@-1")).hasMessageContaining("mig.start");
  }

  @Test
  void migSliceTakesItsProfilesSmsNotSevenths() {
    MigSlice threeG = new MigSlice("3g.40gb", 4);
    assertThat(threeG.computeFraction(a100)).isCloseTo(42.0 / 108, within(1e-12));
    assertThat(threeG.computeFraction(a100)).isNotCloseTo(3.0 / 7, within(0.01));
    assertThat(threeG.bandwidthFraction(a100)).isEqualTo(0.5);
    assertThat(threeG.memoryBytes(a100)).isEqualTo(40192L << 20);
    assertThat(threeG.isolated()).isTrue();
    assertThat(new MigSlice("7g.80gb", 0).computeFraction(a100)).isCloseTo(98.0 / 108, within(1e-12));
    MigSliceMps segment = new MigSliceMps("2g.20gb", 2, 3, 4 * GIB);
    assertThat(segment.computeFraction(a100)).isCloseTo(28.0 / 108, within(1e-12));
    assertThat(segment.memoryBytes(a100)).isEqualTo(19968L << 20);
    GpuPartitioning h100 = catalog.partitioning("H100-SXM5-80GB");
    assertThat(new MigSlice("1g.20gb", 6).computeFraction(h100)).isCloseTo(26.0 / 132, within(1e-12));
  }

  @Test
  void contendedKindsGetTheWholeBusAndAMemoryReservation() {
    MpsShare mps = new MpsShare(0.3, 20 * GIB);
    assertThat(mps.computeFraction(a100)).isEqualTo(0.3);
    assertThat(mps.bandwidthFraction(a100)).isEqualTo(1);
    assertThat(mps.memoryBytes(a100)).isEqualTo(20 * GIB);
    CuMask mask = new CuMask(30, 8 * GIB);
    assertThat(mask.computeFraction(mi100)).isEqualTo(0.25);
    assertThat(mask.bandwidthFraction(mi100)).isEqualTo(1);
    assertThat(mask.isolated()).isFalse();
  }

  @Test
  void templatesCarveCoresBandwidthAndMemory() {
    TemplatePartition vir02 = new TemplatePartition("vir02");
    assertThat(vir02.computeFraction(npu)).isEqualTo(0.25);
    assertThat(vir02.bandwidthFraction(npu)).isEqualTo(0.25);
    assertThat(vir02.memoryBytes(npu)).isEqualTo(16 * GIB);
    assertThat(vir02.isolated()).isTrue();
  }

  @Test
  void badPlacementsNameFieldValueAndRule() {
    assertThatThrownBy(() -> new MpsShare(30, 0)).hasMessageContaining("mps.fraction = 30.0").hasMessageContaining("Maybe");
    assertThatThrownBy(() -> new MpsShare(0, 0)).hasMessageContaining("must lie in (0, 1]");
    assertThatThrownBy(() -> new MigSlice("1g.10gb", 7).requireOn(a100))
        .hasMessageContaining("mig[1g.10gb].start = 7").hasMessageContaining("Maybe start it at one of [0, 1, 2, 3, 4, 5, 6]");
    assertThatThrownBy(() -> new MigSlice("1g.5gb", 0).requireOn(a100)).hasMessageContaining("mig.profile = 1g.5gb");
    assertThatThrownBy(() -> new MigSlice("1g.10gb", 0).requireOn(catalog.partitioning("T4"))).hasMessageContaining("no MIG geometry");
    assertThatThrownBy(() -> new CuMask(121, 0).requireOn(mi100)).hasMessageContaining("cuMask.computeUnits = 121").hasMessageContaining("120 CUs");
    assertThatThrownBy(() -> new CuMask(4, 0).requireOn(a100)).hasMessageContaining("no CU masking");
    assertThatThrownBy(() -> new MpsShare(0.5, 0).requireOn(mi100)).hasMessageContaining("has no MPS");
    assertThatThrownBy(() -> new MpsShare(0.5, 81 * GIB).requireOn(a100)).hasMessageContaining("mps.memoryBytes");
    assertThatThrownBy(() -> new TemplatePartition("vir03").requireOn(npu)).hasMessageContaining("template = vir03");
    assertThatThrownBy(() -> new MigSliceMps("3g.40gb", 0, 0, 0)).hasMessageContaining("migMps.processes = 0");
  }

  @Test
  void jsonNamesTheKindAndRoundTripsEveryPlacement() {
    assertThat(RampaJson.write(new MigSlice("3g.40gb", 4))).contains("\"kind\" : \"mig\"").doesNotContain("org.rampa");
    Property.forSeeds("placement JSON round trip is identity", 200, seed -> {
      Placement p = randomPlacement(new Random(seed));
      String json = RampaJson.write(p);
      assertThat(RampaJson.read(json, Placement.class)).as(json).isEqualTo(p);
    });
  }

  @Test
  void jsonRefusesClassNamesAndUnknownKinds() {
    assertThatThrownBy(() -> RampaJson.read("{\"kind\": \"org.rampa.domain.share.Whole\"}", Placement.class)).isInstanceOf(JsonInputException.class);
    assertThatThrownBy(() -> RampaJson.read("{\"kind\": \"mps\", \"fraction\": 1.5, \"memoryBytes\": 0}", Placement.class))
        .hasMessageContaining("mps.fraction = 1.5");
  }

  static Placement randomPlacement(Random r) {
    List<String> profiles = List.of("1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb");
    switch (r.nextInt(6)) {
      case 0: return new Whole();
      case 1: return new MpsShare((1 + r.nextInt(1000)) / 1000.0 * (r.nextBoolean() ? 1 : Math.PI / 4), r.nextLong() & Long.MAX_VALUE);
      case 2: return new MigSlice(profiles.get(r.nextInt(profiles.size())), r.nextInt(8));
      case 3: return new MigSliceMps(profiles.get(r.nextInt(profiles.size())), r.nextInt(8), 1 + r.nextInt(48), r.nextInt(1 << 30));
      case 4: return new CuMask(1 + r.nextInt(220), r.nextInt(1 << 30));
      default: return new TemplatePartition("vir0" + (1 << r.nextInt(4)));
    }
  }
}
