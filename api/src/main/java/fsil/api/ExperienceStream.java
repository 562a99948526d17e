package fsil.api;

import java.util.List;

/**
 * An incremental task: experiences learned in order, evaluation on all classes seen after each one.
 *
 * @param capability {@link Capability#CLASS_INCREMENTAL} or {@link Capability#FEWSHOT_CLASS_INCREMENTAL}
 */
public record ExperienceStream(Capability capability, int dimension, List<Experience> experiences) implements Task {

    public ExperienceStream {
        experiences = List.copyOf(experiences);
        if (capability.episodic()) {
            throw new IllegalArgumentException("an experience stream is incremental, not an episode");
        }
    }
}
