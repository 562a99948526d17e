package fsil.data.sets.glyphs;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;

/**
 * Renders one distorted instance of a glyph as a 28x28 grayscale image (ink 255 on background 0, like MNIST).
 * <p>
 * The glyph outline is centred and scaled so that its larger side spans 20 of the 28 pixels (MNIST's 20x20 box),
 * then distorted by a random affine map: scale factor U(0.8, 1.05), aspect ratio U(0.9, 1.1), shear U(-0.25, 0.25),
 * rotation U(-12, 12) degrees and translation U(-2, 2) pixels per axis. It is drawn with anti-aliasing on a 56x56
 * canvas (2x supersampling); the stroke width then changes by delta ~ U(-0.4, 1.6) canvas pixels per side (the
 * outline is stroked with width 2|delta| in ink to thicken, in background colour to thin). The canvas is averaged
 * down to 28x28, Gaussian pixel noise with standard deviation 0.04 is added, and values are clamped to [0, 1] and
 * rounded to bytes. All randomness comes from the given generator, in a fixed order.
 */
public final class GlyphRenderer {
    public static final int SIDE = 28;
    static final int SUPER = 2;
    static final int CANVAS = SIDE * SUPER;
    static final double BOX = 20.0;
    static final double NOISE = 0.04;

    private final BufferedImage canvas = new BufferedImage(CANVAS, CANVAS, BufferedImage.TYPE_BYTE_GRAY);
    private final byte[] pixels = ((DataBufferByte) canvas.getRaster().getDataBuffer()).getData();

    /** The distortion parameters of one instance. */
    public record Distortion(double scale, double aspect, double shear, double rotationDeg, double dx, double dy,
                             double strokeDelta) {

        static Distortion sample(UniformRandomProvider rng) {
            return new Distortion(uniform(rng, 0.8, 1.05), uniform(rng, 0.9, 1.1), uniform(rng, -0.25, 0.25),
                    uniform(rng, -12, 12), uniform(rng, -2, 2), uniform(rng, -2, 2), uniform(rng, -0.4, 1.6));
        }

        private static double uniform(UniformRandomProvider rng, double lo, double hi) {
            return lo + (hi - lo) * rng.nextDouble();
        }
    }

    /**
     * Renders {@code outline} into {@code out[offset .. offset + 784)}.
     *
     * @param rng supplies the distortion, then the pixel noise
     */
    public void render(Shape outline, UniformRandomProvider rng, byte[] out, int offset) {
        Distortion d = Distortion.sample(rng);
        Rectangle2D b = outline.getBounds2D();
        double fit = BOX * SUPER / Math.max(b.getWidth(), b.getHeight());
        AffineTransform t = new AffineTransform();
        t.translate(CANVAS / 2.0 + d.dx() * SUPER, CANVAS / 2.0 + d.dy() * SUPER);
        t.rotate(Math.toRadians(d.rotationDeg()));
        t.shear(d.shear(), 0);
        t.scale(fit * d.scale() * d.aspect(), fit * d.scale() / d.aspect());
        t.translate(-b.getCenterX(), -b.getCenterY());
        Shape shape = t.createTransformedShape(outline);

        Graphics2D g = canvas.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            g.setColor(Color.BLACK);
            g.fillRect(0, 0, CANVAS, CANVAS);
            g.setColor(Color.WHITE);
            g.fill(shape);
            double delta = d.strokeDelta();
            if (Math.abs(delta) > 1e-3) {
                g.setColor(delta > 0 ? Color.WHITE : Color.BLACK);
                g.setStroke(new BasicStroke((float) (2 * Math.abs(delta)), BasicStroke.CAP_ROUND,
                        BasicStroke.JOIN_ROUND));
                g.draw(shape);
            }
        } finally {
            g.dispose();
        }
        ZigguratSampler.NormalizedGaussian noise = ZigguratSampler.NormalizedGaussian.of(rng);
        for (int y = 0; y < SIDE; y++) {
            for (int x = 0; x < SIDE; x++) {
                int sum = 0;
                for (int sy = 0; sy < SUPER; sy++) {
                    int row = (y * SUPER + sy) * CANVAS + x * SUPER;
                    for (int sx = 0; sx < SUPER; sx++) {
                        sum += pixels[row + sx] & 0xFF;
                    }
                }
                double v = sum / (255.0 * SUPER * SUPER) + NOISE * noise.sample();
                v = Math.max(0, Math.min(1, v));
                out[offset + y * SIDE + x] = (byte) Math.round(v * 255);
            }
        }
    }
}
