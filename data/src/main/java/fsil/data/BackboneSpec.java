package fsil.data;

import fsil.api.FsilException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which frozen feature extractor turns a dataset's raw inputs into features, with its configuration.
 * <ul>
 *   <li>{@code identity}: the raw inputs (pixels in [0, 1], or the user's features) are the features.</li>
 *   <li>{@code pretrained-mlp}: an MLP trained with softmax cross-entropy on the training samples of the base
 *       classes only, then frozen; the output of its last hidden layer is the feature vector. Options (all
 *       optional): {@code hidden=512-256-128} (layer widths, the last is the feature dimension),
 *       {@code epochs=15}, {@code batch=128}, {@code lr=0.001} (Adam step size), {@code wd=0.0001} (decoupled
 *       weight decay), e.g. {@code pretrained-mlp:hidden=256-128,epochs=10}.</li>
 * </ul>
 *
 * @param kind         {@code identity} or {@code pretrained-mlp}
 * @param hidden       hidden layer widths (pretrained-mlp only)
 * @param epochs       passes over the base-class training data
 * @param batchSize    mini-batch size
 * @param learningRate Adam step size
 * @param weightDecay  decoupled (AdamW-style) weight decay per step, relative to the step size
 */
public record BackboneSpec(String kind, List<Integer> hidden, int epochs, int batchSize, double learningRate,
                           double weightDecay) {
    public static final String IDENTITY = "identity";
    public static final String PRETRAINED_MLP = "pretrained-mlp";

    public BackboneSpec {
        hidden = List.copyOf(hidden);
        if (!kind.equals(IDENTITY) && !kind.equals(PRETRAINED_MLP)) {
            throw new FsilException("unknown backbone '" + kind + "'; valid backbones: " + IDENTITY + ", "
                    + PRETRAINED_MLP + "[:hidden=512-256-128,epochs=15,batch=128,lr=0.001,wd=0.0001]");
        }
        if (kind.equals(PRETRAINED_MLP)) {
            if (hidden.isEmpty() || hidden.stream().anyMatch(h -> h < 1)) {
                throw new FsilException("pretrained-mlp needs at least one hidden layer of width >= 1, got "
                        + hidden);
            }
            if (epochs < 1 || batchSize < 1 || !(learningRate > 0) || !(weightDecay >= 0)) {
                throw new FsilException("pretrained-mlp needs epochs >= 1, batch >= 1, lr > 0 and wd >= 0; got"
                        + " epochs=" + epochs + ", batch=" + batchSize + ", lr=" + learningRate + ", wd="
                        + weightDecay);
            }
        }
    }

    /** The identity backbone. */
    public static BackboneSpec identity() {
        return new BackboneSpec(IDENTITY, List.of(), 0, 0, 0, 0);
    }

    /** pretrained-mlp with the default configuration: 512-256-128, 15 epochs, batch 128, lr 1e-3, wd 1e-4. */
    public static BackboneSpec pretrainedMlp() {
        return new BackboneSpec(PRETRAINED_MLP, List.of(512, 256, 128), 15, 128, 1e-3, 1e-4);
    }

    /** Parses {@code identity} or {@code pretrained-mlp[:key=value,...]} (see the class comment). */
    public static BackboneSpec parse(String text) {
        String t = text.strip();
        int colon = t.indexOf(':');
        String kind = (colon < 0 ? t : t.substring(0, colon)).toLowerCase(Locale.ROOT);
        Map<String, String> opts = options(colon < 0 ? "" : t.substring(colon + 1), text);
        if (kind.equals(IDENTITY)) {
            if (!opts.isEmpty()) {
                throw new FsilException("backbone identity takes no options, got " + opts.keySet());
            }
            return identity();
        }
        if (!kind.equals(PRETRAINED_MLP)) {
            throw new FsilException("unknown backbone '" + kind + "'; valid backbones: " + IDENTITY + ", "
                    + PRETRAINED_MLP + "[:hidden=512-256-128,epochs=15,batch=128,lr=0.001,wd=0.0001]");
        }
        BackboneSpec d = pretrainedMlp();
        List<Integer> hidden = d.hidden();
        int epochs = d.epochs();
        int batch = d.batchSize();
        double lr = d.learningRate();
        double wd = d.weightDecay();
        try {
            for (Map.Entry<String, String> e : opts.entrySet()) {
                String v = e.getValue();
                switch (e.getKey()) {
                    case "hidden" -> {
                        List<Integer> h = new ArrayList<>();
                        for (String s : v.split("[-x]")) {
                            h.add(Integer.parseInt(s));
                        }
                        hidden = h;
                    }
                    case "epochs" -> epochs = Integer.parseInt(v);
                    case "batch" -> batch = Integer.parseInt(v);
                    case "lr" -> lr = Double.parseDouble(v);
                    case "wd" -> wd = Double.parseDouble(v);
                    default -> throw new FsilException("unknown pretrained-mlp option '" + e.getKey()
                            + "'; valid options: hidden, epochs, batch, lr, wd");
                }
            }
        } catch (NumberFormatException e) {
            throw new FsilException("backbone '" + text + "': " + e.getMessage() + " is not a number");
        }
        return new BackboneSpec(kind, hidden, epochs, batch, lr, wd);
    }

    static Map<String, String> options(String s, String whole) {
        Map<String, String> out = new LinkedHashMap<>();
        if (s.isBlank()) {
            return out;
        }
        for (String part : s.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new FsilException("'" + whole + "': option '" + part + "' must be key=value");
            }
            out.put(part.substring(0, eq).strip().toLowerCase(Locale.ROOT), part.substring(eq + 1).strip());
        }
        return out;
    }

    /** Canonical text, parseable by {@link #parse}; used in cache keys and run records. */
    public String describe() {
        if (kind.equals(IDENTITY)) {
            return IDENTITY;
        }
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < hidden.size(); i++) {
            h.append(i == 0 ? "" : "-").append(hidden.get(i));
        }
        return PRETRAINED_MLP + ":hidden=" + h + ",epochs=" + epochs + ",batch=" + batchSize + ",lr=" + learningRate
                + ",wd=" + weightDecay;
    }

    @Override
    public String toString() {
        return describe();
    }
}
