package org.rampa.perf.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Regression on real data: the two-term law fitted by RAMPA reproduces ParvaGPU's MIG series and
 * MuxServe's MPS series, and agrees with the project's reference fits of the same series.
 */
class ShareLawCalibrationTest {

  private final List<ShareSeries> parva = PublishedShareTables.parvaGpu();
  // a law needs two shares: the one-share series (measured at one share only) have none
  private final List<ShareSeries> mux = PublishedShareTables.muxServe().stream().filter(ShareSeries::fittable).toList();

  @Test
  void fittedLawReproducesParvaGpuMigSeries() throws IOException {
    // the reference fits take the series measured on at least four of the five instance sizes (small instances run out of memory at large batches)
    List<ShareSeries> single = parva.stream().filter(s -> s.processes() == 1 && s.shares().size() >= 4).toList();
    assertThat(single).hasSize(78);
    List<Double> worst = new ArrayList<>();
    List<Double> proportional = new ArrayList<>();
    for (ShareSeries s : single) {
      worst.add(s.fit().worstRelativeError(s.shares(), s.seconds()));
      proportional.add(proportionalWorstError(s));
    }
    double median = median(worst);
    System.out.printf("ParvaGPU MIG, 78 model x batch series: two-term law median worst error %.4f, max %.4f;"
        + " time/share median worst error %.4f, max %.4f%n", median, max(worst), median(proportional), max(proportional));
    assertThat(median).isLessThanOrEqualTo(0.10);
    assertThat(median(proportional)).as("time/share is far off").isGreaterThan(0.5);

    // s = SMs/108 is (98/108)·(g/7) for every ParvaGPU size, so C must equal the reference's and A scale by 98/108
    Map<String, String[]> reference = reference("parvagpu-mig-share-fits.csv", r -> r[1] + "@" + r[2]);
    for (ShareSeries s : single) {
      String[] ref = reference.get(s.name() + "@" + s.batch());
      assertThat(ref).as(s.name() + "@" + s.batch()).isNotNull();
      ShareLaw law = s.fit();
      assertThat(law.c() * 1000).as("C of " + s.name() + "@" + s.batch()).isCloseTo(Double.parseDouble(ref[4]), within(0.002));
      assertThat(law.a() * 1000 * 108 / 98).as("A of " + s.name() + "@" + s.batch()).isCloseTo(Double.parseDouble(ref[3]), within(0.002));
      assertThat(law.worstRelativeError(s.shares(), s.seconds())).isCloseTo(Double.parseDouble(ref[5]), within(0.0006));
    }
  }

  @Test
  void fittedLawReproducesMuxServeMpsSeries() throws IOException {
    Map<String, String[]> reference = reference("muxserve-mps-share-fits.csv",
        r -> r[1] + (r[2].equals("1") ? "" : "-tp" + r[2]) + (r[5].equals("prefill") ? "-prefill-" : "-decode-") + r[4] + "@" + r[3]);
    Map<String, List<Double>> worstByPhase = new HashMap<>();
    int compared = 0;
    for (ShareSeries s : mux) {
      String[] ref = reference.get(s.name() + "@" + s.batch());
      if (ref == null) {
        continue;
      }
      compared++;
      ShareLaw law = s.fit();
      double worst = law.worstRelativeError(s.shares(), s.seconds());
      worstByPhase.computeIfAbsent(ref[5], k -> new ArrayList<>()).add(worst);
      assertThat(law.a() * 1000).as("A of " + s.name() + "@" + s.batch()).isCloseTo(Double.parseDouble(ref[6]), within(0.002));
      assertThat(law.c() * 1000).as("C of " + s.name() + "@" + s.batch()).isCloseTo(Double.parseDouble(ref[7]), within(0.002));
    }
    assertThat(compared).isEqualTo(reference.size());
    double prefill = median(worstByPhase.get("prefill"));
    double decode = median(worstByPhase.get("decoding"));
    List<Double> everySeries = mux.stream().map(s -> s.fit().worstRelativeError(s.shares(), s.seconds())).toList();
    System.out.printf("MuxServe MPS, %d reference series: median worst error prefill %.4f (%d series), decode %.4f (%d series);"
        + " all %d series in the table: median %.4f%n", compared, prefill, worstByPhase.get("prefill").size(), decode,
        worstByPhase.get("decoding").size(), mux.size(), median(everySeries));
    assertThat(prefill).isLessThanOrEqualTo(0.10);
    assertThat(decode).isLessThanOrEqualTo(0.10);
  }

  private static double proportionalWorstError(ShareSeries s) {
    int last = s.shares().size() - 1;
    double whole = s.seconds().get(last) * s.shares().get(last);
    double worst = 0;
    for (int i = 0; i < s.shares().size(); i++) {
      worst = Math.max(worst, Math.abs(whole / s.shares().get(i) - s.seconds().get(i)) / s.seconds().get(i));
    }
    return worst;
  }

  private static Map<String, String[]> reference(String resource, java.util.function.Function<String[], String> key) throws IOException {
    Map<String, String[]> out = new HashMap<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        ShareLawCalibrationTest.class.getResourceAsStream(resource), StandardCharsets.UTF_8))) {
      r.lines().skip(1).map(l -> l.split(",")).forEach(f -> out.put(key.apply(f), f));
    }
    return out;
  }

  static double median(List<Double> xs) {
    List<Double> sorted = xs.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static double max(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }
}
