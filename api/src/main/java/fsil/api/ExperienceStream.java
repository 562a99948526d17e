package fsil.api;

import java.util.List;

/** An incremental task: experiences learned in order, evaluation on all classes seen after each one. */
public record ExperienceStream(TaskKind kind, int dimension, List<Experience> experiences) implements Task {

    public ExperienceStream {
        experiences = List.copyOf(experiences);
        if (kind == TaskKind.FEWSHOT_EPISODE) {
            throw new IllegalArgumentException("an experience stream is incremental, not an episode");
        }
    }
}
