/**
 * Resource importance (docs/SPEC.md section 4): what it costs to consume a GPU now, given the services
 * expected later. {@link org.rampa.heuristics.importance.ImportanceModels} builds the models;
 * {@link org.rampa.heuristics.importance.WorkloadForecast} and
 * {@link org.rampa.heuristics.importance.SlidingWindowForecast} describe future demand;
 * {@link org.rampa.heuristics.importance.Placeability} is the "could this still be admitted?"
 * oracle of the marginal-loss model.
 */
package org.rampa.heuristics.importance;
