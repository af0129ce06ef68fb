/**
 * The strategy SPI: the problem a strategy receives, the result it returns, its options, and the
 * {@link java.util.ServiceLoader} lookup that finds strategies in other modules by name.
 */
@ValueStyle
package org.rampa.strategy;

import org.rampa.domain.ValueStyle;
