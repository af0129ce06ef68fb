/**
 * The learned co-location policy's machinery, independent of any problem: a small network on plain
 * arrays ({@link org.rampa.heuristics.learned.Mlp}, backward pass and Adam written here: the network
 * has a few thousand weights, and no Java deep-learning library fits — DJL downloads natives at run
 * time, DL4J's RL stopped at 1.0.0-beta7, Smile is GPL-3.0), a per-candidate scorer with a masked
 * softmax ({@link org.rampa.heuristics.learned.CandidatePolicy}), REINFORCE with a per-instance
 * baseline and an entropy bonus ({@link org.rampa.heuristics.learned.Reinforce}) and the weights'
 * JSON document ({@link org.rampa.heuristics.learned.PolicyDocument}). Deterministic from a seed.
 */
package org.rampa.heuristics.learned;
