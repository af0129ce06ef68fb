package org.rampa.examples.learned;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.rampa.heuristics.learned.CandidatePolicy;
import org.rampa.heuristics.learned.ColocationEnvironment;
import org.rampa.heuristics.learned.PolicyTrainer;

/**
 * Trains the learned co-location policy on random demand mixes of one family ({@link DemandMixes})
 * at one cluster size. The return of an episode is the demand scale it serves over the mix's reference scale
 * ({@link ColocationEnvironment#referenceScale}), so mixes of any rate weigh alike.
 */
public final class Training {
  private Training() {}

  /** Draws mixes of {@code family} on {@code gpus} GPUs; plays episodes with {@code topK} partly used candidates. */
  public static PolicyTrainer.Environment<ColocationEnvironment> environment(DemandMixes.Family family, int gpus, int topK) {
    return new PolicyTrainer.Environment<>() {
      @Override
      public ColocationEnvironment instance(SplittableRandom random) {
        return new ColocationEnvironment(DemandMixes.draw(family, random, gpus), topK);
      }

      @Override
      public double rollout(ColocationEnvironment environment, org.rampa.heuristics.learned.Trajectory trajectory) {
        double reference = environment.referenceScale();
        return reference == 0 ? 0 : environment.run(trajectory::choose).plan().scale() / reference;
      }
    };
  }

  public static List<PolicyTrainer.CurvePoint> train(CandidatePolicy policy, DemandMixes.Family family, int gpus, int topK,
      PolicyTrainer.Settings settings, IntConsumer progress) {
    return PolicyTrainer.train(policy, environment(family, gpus, topK), settings, progress);
  }

  public static void writeCurveCsv(List<PolicyTrainer.CurvePoint> curve, Path file) {
    StringBuilder csv = new StringBuilder("update,episodes,mean_scale_of_reference,mean_entropy\n");
    for (PolicyTrainer.CurvePoint p : curve) {
      csv.append(String.format(Locale.ROOT, "%d,%d,%.6f,%.6f%n", p.update(), p.episodes(), p.meanResult(), p.meanEntropy()));
    }
    try {
      Files.writeString(file, csv);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** The mean return per update and its moving average over ten updates, as PNG and SVG. */
  public static void writeCurveChart(List<PolicyTrainer.CurvePoint> curve, String title, Path png, Path svg) {
    XYChart chart = new XYChartBuilder().width(900).height(520).title(title).xAxisTitle("episodes")
        .yAxisTitle("demand scale / reference scale (mean of the update's rollouts)").build();
    chart.getStyler().setMarkerSize(3);
    double[] x = curve.stream().mapToDouble(PolicyTrainer.CurvePoint::episodes).toArray();
    double[] y = curve.stream().mapToDouble(PolicyTrainer.CurvePoint::meanResult).toArray();
    double[] smooth = new double[y.length];
    for (int i = 0; i < y.length; i++) {
      int from = Math.max(0, i - 9);
      double sum = 0;
      for (int j = from; j <= i; j++) {
        sum += y[j];
      }
      smooth[i] = sum / (i - from + 1);
    }
    chart.addSeries("per update", x, y);
    chart.addSeries("moving average (10 updates)", x, smooth);
    try {
      BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
      VectorGraphicsEncoder.saveVectorGraphic(chart, svg.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the learning curve next to " + png, e);
    }
  }
}
