package org.rampa.perf.share;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rampa.domain.Invalid;

/**
 * Safety margins on predicted stage times, one per tier: a stage answered by tier {@code t} is
 * planned at {@code time × (1 + margin(t))}. {@link #defaults()} derives each margin from that
 * tier's own measured error ({@link org.rampa.catalog.TierErrors}); {@link #none()} plans on the nominal times.
 *
 * @param measured margin of the measured tier, a fraction (0.05 for 5 %)
 * @param fitted margin of the fitted-law tier
 * @param analytic margin of the analytic tier
 */
public record TierMargins(double measured, double fitted, double analytic) {

  /** The largest margin accepted: a tenfold time is no longer a margin but another model. */
  public static final double MAX = 10;

  private static final TierMargins NONE = new TierMargins(0, 0, 0);

  /** The measured tier's default margin (see {@link Defaults}). */
  static final double MEASURED = 0.22046199286233858;
  /** The fitted tier's default margin. */
  static final double FITTED = 0.8164485421556187;
  /** The analytic tier's default margin. */
  static final double ANALYTIC = 4.815053252025616;

  public TierMargins {
    check("margins.measured", measured);
    check("margins.fitted", fitted);
    check("margins.analytic", analytic);
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

  public double of(ShareTier tier) {
    return switch (tier) {
      case MEASURED -> measured;
      case FITTED -> fitted;
      case ANALYTIC -> analytic;
    };
  }

  public boolean isNone() {
    return measured == 0 && fitted == 0 && analytic == 0;
  }

  /** Every margin times {@code factor} (a sweep of the default margins). */
  public TierMargins scaled(double factor) {
    return new TierMargins(measured * factor, fitted * factor, analytic * factor);
  }

  /** Per tier label, for JSON. */
  public Map<String, Double> byLabel() {
    Map<String, Double> out = new LinkedHashMap<>();
    for (ShareTier t : ShareTier.values()) {
      out.put(t.label(), of(t));
    }
    return out;
  }

  /**
   * The margins {@link org.rampa.catalog.TierErrors#margin} derives from the shipped tables, recorded
   * here because that derivation reads the catalogs, which sit above this package;
   * {@code TierErrorsTest} recomputes them and requires the same doubles.
   */
  private static final class Defaults {
    static final TierMargins MARGINS = new TierMargins(MEASURED, FITTED, ANALYTIC);
  }
}
