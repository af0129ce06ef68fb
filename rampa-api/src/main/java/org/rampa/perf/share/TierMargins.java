package org.rampa.perf.share;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.Whole;

/**
 * Safety margins on predicted stage times, one per tier, and for the analytic tier one per serving
 * runtime: a stage of a model served by runtime {@code r} answered by tier {@code t} is planned at
 * {@code time × (1 + margin(t, r))}. {@link #defaults()} derives each margin from that tier's own
 * measured error ({@link org.rampa.catalog.TierErrors}), the analytic one from the runtime's own
 * measurements; {@link #none()} plans on the nominal times.
 *
 * @param measured margin of the measured tier, a fraction (0.05 for 5 %)
 * @param fitted margin of the fitted-law tier
 * @param analytic margin of the analytic tier per serving runtime, every runtime present
 */
public record TierMargins(double measured, double fitted, Map<ServingRuntime, Double> analytic) {

  /** The largest margin accepted: a tenfold time is no longer a margin but another model. */
  public static final double MAX = 10;

  private static final TierMargins NONE = new TierMargins(0, 0, 0);

  /** The measured tier's default margin (see {@link Defaults}). */
  static final double MEASURED = 0.22046199286233858;
  /** The fitted tier's default margin. */
  static final double FITTED = 0.8164485421556187;
  /** The analytic tier's default margin for PyTorch eager (ParvaGPU's CNNs, held out). */
  static final double ANALYTIC_PYTORCH_EAGER = 1.4985399916237712;
  /** The analytic tier's default margin for MuxServe (its LLaMA sizes, held out). */
  static final double ANALYTIC_MUXSERVE = 0.282617879548664;

  public TierMargins {
    check("margins.measured", measured);
    check("margins.fitted", fitted);
    Invalid.requireNonNull("margins.analytic", analytic);
    EnumMap<ServingRuntime, Double> copy = new EnumMap<>(ServingRuntime.class);
    for (ServingRuntime r : ServingRuntime.values()) {
      Double m = analytic.get(r);
      if (m == null) {
        throw Invalid.value("margins.analytic", analytic.keySet(), "must give a margin for every serving runtime",
            "use the constructor with one analytic margin for all, or name " + java.util.List.of(ServingRuntime.values()));
      }
      check("margins.analytic." + r.id(), m);
      copy.put(r, m);
    }
    analytic = java.util.Collections.unmodifiableMap(copy);
  }

  /** One analytic margin for every runtime. */
  public TierMargins(double measured, double fitted, double analytic) {
    this(measured, fitted, everyRuntime(analytic));
  }

  private static Map<ServingRuntime, Double> everyRuntime(double margin) {
    Map<ServingRuntime, Double> all = new EnumMap<>(ServingRuntime.class);
    for (ServingRuntime r : ServingRuntime.values()) {
      all.put(r, margin);
    }
    return all;
  }

  private static void check(String field, double value) {
    if (!(value >= 0 && value <= MAX)) {
      throw Invalid.value(field, value, "must lie in [0, " + MAX + "]", "a margin is a fraction of the predicted time: 0.1 for 10 %");
    }
  }

  /** No margin: plans are made on the nominal times. */
  public static TierMargins none() {
    return NONE;
  }

  /** The same fraction for every tier. */
  public static TierMargins uniform(double fraction) {
    return new TierMargins(fraction, fraction, fraction);
  }

  /**
   * Each tier's margin from its own measured error ({@link org.rampa.catalog.TierErrors#margin}): the default of
   * {@code colocate} and of the co-location API's planning margin.
   */
  public static TierMargins defaults() {
    return Defaults.MARGINS;
  }

  /**
   * {@code none}, {@code default} or one fraction for every tier ({@code 0.1}); bad text is refused
   * naming {@code field}.
   */
  public static TierMargins parse(String field, String text) {
    String t = text == null ? "" : text.trim();
    if (t.equals("none")) {
      return none();
    }
    if (t.equals("default")) {
      return defaults();
    }
    double f;
    try {
      f = Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw Invalid.value(field, text, "is not a margin", "use none, default (each tier's measured error) or a fraction such as 0.1");
    }
    if (!(f >= 0 && f <= MAX)) {
      throw Invalid.value(field, text, "must lie in [0, " + MAX + "]", "use none, default or a fraction such as 0.1");
    }
    return f == 0 ? none() : uniform(f);
  }

  /**
   * The margin of {@code stage}'s time as {@code tier} answered it: the tier's margin for the
   * stage's runtime where {@link #covers} says its error sample applies, else 0.
   */
  public double of(ShareTier tier, SharedStage stage) {
    return covers(tier, stage) ? of(tier, stage.model().runtime()) : 0;
  }

  /**
   * Whether {@code tier}'s measured error sample speaks for its answer on {@code stage}: always,
   * except for the analytic tier on a whole GPU. There it answers the runtime's whole-GPU time itself
   * (the catalog's for TensorRT), the reference its sample is measured against (slowdowns: a share's
   * time over the whole GPU's), so that sample says nothing about it; the placement API's whole-GPU
   * stages carry no margin either.
   */
  public static boolean covers(ShareTier tier, SharedStage stage) {
    return tier != ShareTier.ANALYTIC || !(stage.placement() instanceof Whole);
  }

  /** The margin of {@code tier} answering a model served by {@code runtime}. */
  public double of(ShareTier tier, ServingRuntime runtime) {
    return switch (tier) {
      case MEASURED -> measured;
      case FITTED -> fitted;
      case ANALYTIC -> analytic.get(runtime);
    };
  }

  public boolean isNone() {
    return measured == 0 && fitted == 0 && analytic.values().stream().allMatch(m -> m == 0);
  }

  /** Every margin times {@code factor} (a sweep of the default margins). */
  public TierMargins scaled(double factor) {
    Map<ServingRuntime, Double> a = new EnumMap<>(ServingRuntime.class);
    analytic.forEach((r, m) -> a.put(r, m * factor));
    return new TierMargins(measured * factor, fitted * factor, a);
  }

  /** Per tier label ("measured", "fitted", "analytic-tensorrt", "analytic-pytorch-eager" …), for JSON. */
  public Map<String, Double> byLabel() {
    Map<String, Double> out = new LinkedHashMap<>();
    out.put(ShareTier.MEASURED.label(), measured);
    out.put(ShareTier.FITTED.label(), fitted);
    for (ServingRuntime r : ServingRuntime.values()) {
      out.put(ShareTier.ANALYTIC.label() + "-" + r.id(), analytic.get(r));
    }
    return out;
  }

  /**
   * The margins {@link org.rampa.catalog.TierErrors#margin} derives from the shipped tables, recorded
   * here because that derivation reads the catalogs, which sit above this package;
   * {@code TierErrorsTest} recomputes them and requires the same doubles. TensorRT, which no
   * shipped table measures on a share, takes the larger of the two measured runtimes' analytic
   * margins ({@link org.rampa.catalog.TierErrors#analyticSource}).
   */
  private static final class Defaults {
    static final TierMargins MARGINS = new TierMargins(MEASURED, FITTED, Map.of(
        ServingRuntime.TENSORRT, Math.max(ANALYTIC_PYTORCH_EAGER, ANALYTIC_MUXSERVE),
        ServingRuntime.PYTORCH_EAGER, ANALYTIC_PYTORCH_EAGER,
        ServingRuntime.MUXSERVE, ANALYTIC_MUXSERVE));
  }
}
