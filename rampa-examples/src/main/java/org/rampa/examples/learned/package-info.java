/**
 * Training and evaluating the learned co-location policy from the command line ({@code rampa
 * train}, {@code rampa evaluate-policy}): the demand mixes it trains on, the training run with
 * its learning curve, and the comparison with the heuristic, the baselines and the bound. The
 * policy itself (network, REINFORCE, environment) is in {@code org.rampa.heuristics.learned}.
 */
package org.rampa.examples.learned;
