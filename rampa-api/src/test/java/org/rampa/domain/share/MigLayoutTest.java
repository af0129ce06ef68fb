package org.rampa.domain.share;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.SharingCatalog;
import org.rampa.testing.Property;

/**
 * The layout checker against an independent oracle: every legal layout of a geometry, enumerated
 * by brute force over all subsets of (profile, allowed start) candidates with memory slices as bit
 * masks. The oracle shares nothing with {@link MigLayout} but the geometry's numbers.
 */
class MigLayoutTest {

  private final SharingCatalog catalog = SharingCatalog.standard();
  private final MigGeometry a100 = catalog.geometry("A100-80GB");

  @Test
  void sharingDocExamples() {
    assertThat(MigLayout.check(a100, List.of(slice("2g.20gb", 0), slice("1g.10gb", 2), slice("1g.10gb", 3), slice("3g.40gb", 4)))).isEmpty();
    assertThat(MigLayout.check(a100, List.of(slice("3g.40gb", 0), slice("4g.40gb", 0)))).get()
        .extracting(ShareViolation::rule).isEqualTo(ShareViolation.Rule.MIG_OVERLAP);
    assertThat(MigLayout.check(a100, List.of(slice("1g.10gb", 7)))).get()
        .satisfies(v -> assertThat(v.rule()).isEqualTo(ShareViolation.Rule.MIG_START))
        .satisfies(v -> assertThat(v.message()).contains("1g.10gb@7").contains("[0, 1, 2, 3, 4, 5, 6]"));
    assertThat(MigLayout.check(a100, List.of(slice("4g.40gb", 0), slice("3g.40gb", 4)))).isEmpty();
    assertThat(MigLayout.check(a100, List.of(slice("1g.5gb", 0)))).get()
        .extracting(ShareViolation::rule).isEqualTo(ShareViolation.Rule.MIG_PROFILE);
    MigGeometry h100 = catalog.geometry("H100-SXM5-80GB");
    assertThat(MigLayout.check(h100, List.of(slice("2g.20gb", 0), slice("1g.10gb", 2), slice("1g.10gb", 3), slice("3g.40gb", 4)))).isEmpty();
    assertThat(MigLayout.check(h100, List.of(slice("1g.10gb", 7)))).isPresent();
  }

  @Test
  void legalLayoutCountsPerGeometry() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, Long> maximal = new LinkedHashMap<>();
    for (String name : catalog.geometryNames()) {
      MigGeometry g = catalog.geometry(name);
      Set<String> legal = enumerateLegal(g);
      counts.put(name, legal.size());
      for (String layout : legal) {
        assertThat(MigLayout.check(g, parse(layout))).as(name + " " + layout).isEmpty();
      }
      // maximal: no candidate placement can be added and stay legal
      maximal.put(name, legal.stream().filter(l -> g.profiles().stream().flatMap(p -> p.allowedStarts().stream()
          .map(st -> canonical(concat(parse(l), new MigSlice(p.name(), st))))).noneMatch(legal::contains)).count());
    }
    System.out.println("legal non-empty MIG layouts per geometry (brute force): " + counts + "; maximal ones: " + maximal);
    assertThat(maximal.get("A100-80GB")).isLessThan(counts.get("A100-80GB"));
    // every geometry in the catalog has the A100/H100 start rules, so the same count
    assertThat(counts.values()).allSatisfy(c -> assertThat(c).isEqualTo(counts.get("A100-80GB")));
  }

  @Test
  void randomLayoutsAgreeWithTheEnumeration() {
    for (String name : catalog.geometryNames()) {
      MigGeometry g = catalog.geometry(name);
      Set<String> legal = enumerateLegal(g);
      List<String> legalList = new ArrayList<>(legal);
      Property.forSeeds(name + ": checker agrees with brute force on random layouts", 300, seed -> {
        Random r = new Random(seed);
        List<MigSlice> layout;
        if (r.nextBoolean()) {
          layout = new ArrayList<>(parse(legalList.get(r.nextInt(legalList.size()))));
          java.util.Collections.shuffle(layout, r);
        } else {
          layout = new ArrayList<>();
          int n = 1 + r.nextInt(5);
          for (int i = 0; i < n; i++) {
            MigProfile p = g.profiles().get(r.nextInt(g.profiles().size()));
            layout.add(new MigSlice(p.name(), r.nextInt(8)));
          }
        }
        boolean oracle = legal.contains(canonical(layout));
        assertThat(MigLayout.check(g, layout).isEmpty()).as(name + " " + layout).isEqualTo(oracle);
      });
    }
  }

  @Test
  void theOccupancyTrackerAgreesWithTheEnumeration() {
    for (String name : catalog.geometryNames()) {
      MigGeometry g = catalog.geometry(name);
      Set<String> legal = enumerateLegal(g);
      List<String> legalList = new ArrayList<>(legal);
      Property.forSeeds(name + ": tracker agrees with brute force", 200, seed -> {
        Random r = new Random(seed);
        List<MigSlice> layout = parse(legalList.get(r.nextInt(legalList.size())));
        MigLayout tracked = MigLayout.of(g, layout);
        int used = layout.stream().mapToInt(x -> g.profile(x.profile()).memorySlices()).sum();
        assertThat(tracked.freeSlices()).isEqualTo(g.memorySlices() - used);
        int room = 0;
        for (MigProfile p : g.profiles()) {
          int best = -1;
          int bestRoom = -1;
          for (int start : p.allowedStarts()) {
            boolean oracle = legal.contains(canonical(concat(layout, new MigSlice(p.name(), start))));
            assertThat(tracked.fits(p, start)).as(name + " " + layout + " + " + p.name() + "@" + start).isEqualTo(oracle);
            if (oracle) {
              room++;
              int after = tracked.with(p.name(), start).legalPlacements();
              if (after > bestRoom) {
                bestRoom = after;
                best = start;
              }
            }
          }
          assertThat(tracked.bestStart(p)).as(name + " best start of " + p.name() + " beside " + layout).isEqualTo(best);
        }
        assertThat(tracked.legalPlacements()).isEqualTo(room);
        MigSlice last = layout.get(layout.size() - 1);
        assertThat(tracked.without(last.profile(), last.start()).usedMask()).isEqualTo(MigLayout.of(g, layout.subList(0, layout.size() - 1)).usedMask());
      });
      // a layout the checker refuses cannot be tracked
      MigProfile first = g.profiles().get(0);
      int start = first.allowedStarts().get(0);
      List<MigSlice> overlap = List.of(slice(first.name(), start), slice(first.name(), start));
      assertThat(MigLayout.check(g, overlap)).isPresent();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> MigLayout.of(g, overlap)).hasMessageContaining("mig[" + first.name() + "].start = " + start);
    }
  }

  /** Every non-empty legal layout as canonical strings, by trying every subset of candidate placements. */
  static Set<String> enumerateLegal(MigGeometry g) {
    List<MigSlice> candidates = new ArrayList<>();
    List<Integer> masks = new ArrayList<>();
    for (MigProfile p : g.profiles()) {
      for (int start : p.allowedStarts()) {
        candidates.add(new MigSlice(p.name(), start));
        masks.add(((1 << p.memorySlices()) - 1) << start);
      }
    }
    Set<String> legal = new HashSet<>();
    for (int subset = 1; subset < 1 << candidates.size(); subset++) {
      int used = 0;
      boolean ok = true;
      List<MigSlice> layout = new ArrayList<>();
      for (int i = 0; i < candidates.size() && ok; i++) {
        if ((subset >> i & 1) == 1) {
          ok = (used & masks.get(i)) == 0;
          used |= masks.get(i);
          layout.add(candidates.get(i));
        }
      }
      if (ok) {
        legal.add(canonical(layout));
      }
    }
    return legal;
  }

  private static List<MigSlice> concat(List<MigSlice> layout, MigSlice extra) {
    List<MigSlice> out = new ArrayList<>(layout);
    out.add(extra);
    return out;
  }

  static String canonical(List<MigSlice> layout) {
    List<String> parts = new ArrayList<>();
    for (MigSlice s : layout) {
      parts.add(s.profile() + "@" + s.start());
    }
    java.util.Collections.sort(parts);
    return String.join(" ", parts);
  }

  static List<MigSlice> parse(String canonical) {
    List<MigSlice> out = new ArrayList<>();
    for (String part : new TreeSet<>(List.of(canonical.split(" ")))) {
      String[] f = part.split("@");
      out.add(new MigSlice(f[0], Integer.parseInt(f[1])));
    }
    return out;
  }

  private static MigSlice slice(String profile, int start) {
    return new MigSlice(profile, start);
  }
}
