package org.rampa.solver.boundary;

import java.math.BigDecimal;
import java.math.BigInteger;

/** An exact fraction, for the reference that must not share the library's floating-point rounding. */
record Rational(BigInteger num, BigInteger den) implements Comparable<Rational> {

  static final Rational ZERO = of(0);
  static final Rational ONE = of(1);

  Rational {
    if (den.signum() == 0) {
      throw new ArithmeticException("zero denominator");
    }
    if (den.signum() < 0) {
      num = num.negate();
      den = den.negate();
    }
    BigInteger g = num.gcd(den);
    if (!g.equals(BigInteger.ONE) && g.signum() != 0) {
      num = num.divide(g);
      den = den.divide(g);
    }
  }

  static Rational of(long n) {
    return new Rational(BigInteger.valueOf(n), BigInteger.ONE);
  }

  static Rational of(long n, long d) {
    return new Rational(BigInteger.valueOf(n), BigInteger.valueOf(d));
  }

  /** The exact value of a double (every finite double is a fraction with a power-of-two denominator). */
  static Rational of(double x) {
    BigDecimal d = new BigDecimal(x);
    return d.scale() <= 0
        ? new Rational(d.toBigIntegerExact(), BigInteger.ONE)
        : new Rational(d.unscaledValue(), BigInteger.TEN.pow(d.scale()));
  }

  Rational plus(Rational o) {
    return new Rational(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
  }

  Rational minus(Rational o) {
    return plus(new Rational(o.num.negate(), o.den));
  }

  Rational times(Rational o) {
    return new Rational(num.multiply(o.num), den.multiply(o.den));
  }

  Rational dividedBy(Rational o) {
    return new Rational(num.multiply(o.den), den.multiply(o.num));
  }

  Rational max(Rational o) {
    return compareTo(o) >= 0 ? this : o;
  }

  int signum() {
    return num.signum();
  }

  double toDouble() {
    return new BigDecimal(num).divide(new BigDecimal(den), java.math.MathContext.DECIMAL64).doubleValue();
  }

  @Override
  public int compareTo(Rational o) {
    return num.multiply(o.den).compareTo(o.num.multiply(den));
  }
}
