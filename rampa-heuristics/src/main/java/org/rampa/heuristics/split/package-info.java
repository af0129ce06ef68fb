/**
 * The min-period splitter behind {@link org.rampa.heuristics.split.PeriodSplitters}: an exact
 * dynamic programme over a given device sequence. The API it implements is {@code org.rampa.split};
 * choosing the devices is the strategies' job, not this package's.
 */
package org.rampa.heuristics.split;
