package org.rampa.kubernetes;

import org.rampa.domain.Invalid;

/**
 * A request kube-scheduler could not have sent: a missing or mistyped field of ExtenderArgs, or of
 * the v1.Pod / v1.Node objects in it. The server answers it with HTTP 400 and this message, which
 * names the field, its value and the rule (RAMPA's {@link Invalid} format).
 */
public final class BadRequestException extends IllegalArgumentException {

  public BadRequestException(String field, Object value, String rule) {
    super(Invalid.value(field, value, rule).getMessage());
  }
}
