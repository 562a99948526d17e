package fsil.core.nn;

/** Updates parameters from their accumulated gradients (it does not zero them). */
public interface Optimizer {

    /** One update of every array in {@code params} from its gradient. */
    void step(Parameters params);
}
