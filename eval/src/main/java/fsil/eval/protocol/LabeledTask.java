package fsil.eval.protocol;

import fsil.api.Episode;
import fsil.api.ExperienceStream;
import fsil.api.LabeledData;
import fsil.api.Task;

/** A unit's {@link Task} as a protocol hands it to a method, with what only the evaluation sees. */
public sealed interface LabeledTask {

    Task task();

    /**
     * A few-shot episode.
     *
     * @param queryLabels the true class of each query
     */
    record Episodic(Episode task, int[] queryLabels) implements LabeledTask {
    }

    /**
     * An incremental stream, evaluated after each experience on the test data of every class seen so far.
     *
     * @param test         test data of all classes (rows of unseen classes are ignored)
     * @param retrainEvery 0 = never; m &gt; 0 = also retrain the method from scratch on all training data seen so far
     *                     after every m-th experience and the last (Ristin et al.'s relative accuracy)
     */
    record Incremental(ExperienceStream task, LabeledData test, int retrainEvery) implements LabeledTask {
    }
}
