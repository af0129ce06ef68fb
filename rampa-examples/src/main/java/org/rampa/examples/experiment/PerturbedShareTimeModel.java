package org.rampa.examples.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.ShareLaw;
import org.rampa.perf.share.ShareSeries;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;

/**
 * A "truth" that differs from a nominal time model in the two terms of the share law (docs/SHARING.md
 * section 2): for each series, a model on one placement kind, the law {@code t(s) = A/s + C} is
 * fitted by least squares through the nominal model's own answers at that kind's shares (MIG: every
 * profile of the card at the same batch and process count; MPS: shares 0.1 … 1.0, the whole GPU
 * reading the law at s = 1), and the truth is
 * {@code t_nominal(s) + (f_A − 1)·A/s + (f_C − 1)·C}: the perturbed law plus the nominal model's own
 * residual from its law, so factors of 1 give back the nominal time exactly. A series whose nominal
 * model answers fewer than two of its shares (or a CU mask or NPU template, whose shares this class
 * does not enumerate) keeps only the proportional part: its time is multiplied by {@code f_A}.
 *
 * <p>Build one {@link #over} per nominal model and draw many truths from it: the nominal laws are
 * fitted once per series and shared (thread-safe).
 */
public final class PerturbedShareTimeModel implements ShareTimeModel {

  /** The compute fractions of the MPS series a law is fitted through. */
  static final List<Double> MPS_SHARES = List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0);

  /** One series: a model (by name) on one kind of placement (MIG instances, or MPS shares and the whole GPU). */
  public record Series(String model, ShareSeries.Kind kind) {
    public Series {
      Invalid.requireNonBlank("series.model", model);
      Objects.requireNonNull(kind, "series.kind");
    }

    /** The series a stage belongs to. */
    public static Series of(SharedStage stage) {
      return new Series(stage.model().name(), kindOf(stage.placement()));
    }
  }

  /** Multipliers of the law's A and C for one series. */
  public record LawFactors(double a, double c) {
    public LawFactors {
      Invalid.requireFinitePositive("lawFactors.a", a);
      Invalid.requireFinitePositive("lawFactors.c", c);
    }

    public static final LawFactors NONE = new LawFactors(1, 1);
  }

  /** The nominal laws of one nominal model, fitted on demand and remembered; the factory of perturbed truths. */
  public static final class Laws {
    private final ShareTimeModel nominal;
    private final ConcurrentHashMap<LawKey, Optional<ShareLaw>> laws = new ConcurrentHashMap<>();

    private Laws(ShareTimeModel nominal) {
      this.nominal = Objects.requireNonNull(nominal, "nominal");
    }

    /** A truth with {@code factors} per series; series not listed keep their nominal law. */
    public PerturbedShareTimeModel perturbed(Map<Series, LawFactors> factors) {
      return new PerturbedShareTimeModel(this, Map.copyOf(factors));
    }

    /** The law through the nominal model's answers on {@code stage}'s series at its batch and process count. */
    public Optional<ShareLaw> law(SharedStage stage) {
      return laws.computeIfAbsent(LawKey.of(stage), k -> fit(stage));
    }

    private Optional<ShareLaw> fit(SharedStage stage) {
      List<Double> shares = new ArrayList<>();
      List<Double> seconds = new ArrayList<>();
      for (Placement p : seriesPlacements(stage)) {
        SharedStage point = new SharedStage(stage.model(), stage.from(), stage.to(), stage.batch(), stage.type(), stage.gpu(), p);
        OptionalDouble t = nominal.seconds(point);
        if (t.isPresent()) {
          shares.add(point.computeFraction());
          seconds.add(t.getAsDouble());
        }
      }
      return shares.stream().distinct().count() < 2 ? Optional.empty() : Optional.of(ShareLaw.fit(shares, seconds));
    }
  }

  private record LawKey(Model model, int from, int to, int batch, String gpuType, ShareSeries.Kind kind, int processes) {
    static LawKey of(SharedStage s) {
      int processes = s.placement() instanceof MigSliceMps m ? m.processes() : 1;
      return new LawKey(s.model(), s.from(), s.to(), s.batch(), s.type().name(), kindOf(s.placement()), processes);
    }
  }

  private final Laws laws;
  private final Map<Series, LawFactors> factors;

  private PerturbedShareTimeModel(Laws laws, Map<Series, LawFactors> factors) {
    this.laws = laws;
    this.factors = factors;
  }

  /** The factory of truths around {@code nominal}. */
  public static Laws over(ShareTimeModel nominal) {
    return new Laws(nominal);
  }

  /** The factors this truth applies, per series. */
  public Map<Series, LawFactors> factors() {
    return factors;
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    OptionalDouble nominal = laws.nominal.seconds(stage);
    if (nominal.isEmpty()) {
      return nominal;
    }
    LawFactors f = factors.getOrDefault(Series.of(stage), LawFactors.NONE);
    if (f.equals(LawFactors.NONE)) {
      return nominal;
    }
    double t = nominal.getAsDouble();
    Optional<ShareLaw> law = laws.law(stage);
    if (law.isEmpty()) {
      return OptionalDouble.of(t * f.a());
    }
    double s = stage.computeFraction();
    double truth = t + (f.a() - 1) * law.get().a() / s + (f.c() - 1) * law.get().c();
    // A law with a negative term (a nearly flat series) could push the sum to zero or below; no
    // perturbation of ±20 % should make a batch more than twice as fast, so that is the floor.
    return OptionalDouble.of(Math.max(truth, t / 2));
  }

  static ShareSeries.Kind kindOf(Placement p) {
    return p instanceof MigSlice || p instanceof MigSliceMps ? ShareSeries.Kind.MIG : ShareSeries.Kind.MPS;
  }

  /** The placements of a stage's series: MIG profiles at their first start (same processes), or the MPS share grid. */
  private static List<Placement> seriesPlacements(SharedStage stage) {
    Placement p = stage.placement();
    List<Placement> out = new ArrayList<>();
    if (p instanceof MigSlice || p instanceof MigSliceMps) {
      for (MigProfile profile : stage.gpu().requireMig().profiles()) {
        int start = profile.allowedStarts().get(0);
        out.add(p instanceof MigSliceMps m
            ? new MigSliceMps(profile.name(), start, m.processes(), m.processMemoryBytes())
            : new MigSlice(profile.name(), start));
      }
    } else if (p instanceof MpsShare || p instanceof Whole) {
      long memory = p instanceof MpsShare m ? m.memoryBytes() : 0;
      if (stage.gpu().mps()) {
        MPS_SHARES.forEach(s -> out.add(new MpsShare(s, memory)));
      }
    }
    return out;
  }
}
