"""fgrad.numpy.fft and fgrad.scipy against JAX: values, gradients and Hessians (stored
numbers from jax 0.10.2 with x64, and live when jax is installed), plus the behaviour the op
table does not cover: the FFT transposes, errors, derivatives that must raise, BFGS.

Each case is ``fn(m, *args)`` with ``m`` a namespace holding ``numpy`` and ``scipy`` (fgrad's
or JAX's); the checked scalar is ``sum(sin(fn(...)))`` so every output element matters.
"""

from __future__ import annotations

import importlib
import types

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.scipy
from fgrad.scipy import linalg as fl
from fgrad.scipy import optimize as fo
from fgrad.scipy import signal as fsig
from fgrad.scipy import special as fsp
from fgrad.scipy import stats as fst

pytest.importorskip("scipy")  # the special functions' forward values need it

F = types.SimpleNamespace(numpy=fnp, scipy=fgrad.scipy)

X = [0.3, 1.7, 4.2]
P = [0.1, 0.5, 0.85]
K3 = [0.0, 2.0, 5.0]
B3 = [1.0, 2.0, 3.0]
SIG4 = [1.0, -2.0, 0.5, 3.0]
COV3 = [[2.0, 0.3, 0.1], [0.3, 1.5, -0.2], [0.1, -0.2, 1.0]]
GEN3 = [[1.0, 2.0, 0.5], [3.0, -1.0, 2.0], [0.5, 0.2, 4.0]]
SPD3 = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]
CASES = [
    ("special.gammaln", (X,), lambda m, x: m.scipy.special.gammaln(x)),
    ("special.digamma", (X,), lambda m, x: m.scipy.special.digamma(x)),
    ("special.polygamma2", (X,), lambda m, x: m.scipy.special.polygamma(2, x)),
    ("special.gamma", (X,), lambda m, x: m.scipy.special.gamma(x)),
    ("special.betaln", (X, [2.0, 0.5, 1.5]), lambda m, a, b: m.scipy.special.betaln(a, b)),
    ("special.i0e", (X,), lambda m, x: m.scipy.special.i0e(x)),
    ("special.i1e", (X,), lambda m, x: m.scipy.special.i1e(x)),
    ("special.i0", (X,), lambda m, x: m.scipy.special.i0(x)),
    ("special.i1", (X,), lambda m, x: m.scipy.special.i1(x)),
    ("special.ndtri", (P,), lambda m, p: m.scipy.special.ndtri(p)),
    ("special.log_ndtr", ([-8.0, -1.0, 2.0],), lambda m, x: m.scipy.special.log_ndtr(x)),
    ("special.gammainc", (X,), lambda m, x: m.scipy.special.gammainc(2.5, x)),
    ("special.gammaincc", (X,), lambda m, x: m.scipy.special.gammaincc(2.5, x)),
    ("special.zeta", (X,), lambda m, q: m.scipy.special.zeta(3.0, q)),
    ("special.betainc", (P,), lambda m, x: m.scipy.special.betainc(2.0, 3.0, x)),
    ("special.xlogy", ([0.0, 1.0, 2.0],), lambda m, x: m.scipy.special.xlogy(x, 3.0)),
    ("special.entr", (X,), lambda m, x: m.scipy.special.entr(x)),
    ("special.kl_div", (X,), lambda m, x: m.scipy.special.kl_div(x, 1.3)),
    ("special.multigammaln", (X,), lambda m, x: m.scipy.special.multigammaln(x + 2.0, 3)),
    ("special.logsumexp_b", (X,), lambda m, x:
        m.scipy.special.logsumexp(x, b=m.numpy.asarray([1.0, -0.5, 2.0]))),
    ("stats.norm.logcdf", ([-9.0, 0.2, 3.0],), lambda m, x: m.scipy.stats.norm.logcdf(x, 0.1, 1.3)),
    ("stats.t.logpdf", (X,), lambda m, x: m.scipy.stats.t.logpdf(x, 2.5, 0.1, 1.3)),
    ("stats.gamma.logpdf", (X,), lambda m, x: m.scipy.stats.gamma.logpdf(x, 2.5, 0.1, 1.3)),
    ("stats.gamma.cdf", (X,), lambda m, x: m.scipy.stats.gamma.cdf(x, 2.5, 0.1, 1.3)),
    ("stats.beta.logpdf", (P,), lambda m, x: m.scipy.stats.beta.logpdf(x, 2.5, 1.5)),
    ("stats.beta.cdf", (P,), lambda m, x: m.scipy.stats.beta.cdf(x, 2.5, 1.5)),
    ("stats.poisson.logpmf_mu", ([0.5, 2.0, 3.0],), lambda m, mu:
        m.scipy.stats.poisson.logpmf(m.numpy.asarray(K3), mu)),
    ("stats.binom.logpmf_p", (P,), lambda m, p: m.scipy.stats.binom.logpmf(m.numpy.asarray(K3), 5.0, p)),
    ("stats.nbinom.logpmf_p", (P,), lambda m, p: m.scipy.stats.nbinom.logpmf(m.numpy.asarray(K3), 2.5, p)),
    ("stats.truncnorm.logpdf", ([-0.5, 0.1, 1.2],), lambda m, x:
        m.scipy.stats.truncnorm.logpdf(x, -1.0, 2.0, 0.1, 1.2)),
    ("stats.truncnorm.cdf", ([-0.5, 0.1, 1.2],), lambda m, x:
        m.scipy.stats.truncnorm.cdf(x, -1.0, 2.0, 0.1, 1.2)),
    ("stats.pareto.logpdf", ([2.0, 3.0, 5.0],), lambda m, x: m.scipy.stats.pareto.logpdf(x, 2.5, 0.1, 1.3)),
    ("stats.cauchy.logsf", (X,), lambda m, x: m.scipy.stats.cauchy.logsf(x, 0.1, 1.3)),
    ("stats.expon.logcdf", (X,), lambda m, x: m.scipy.stats.expon.logcdf(x, 0.1, 1.3)),
    ("stats.logistic.logpdf", (X,), lambda m, x: m.scipy.stats.logistic.logpdf(x, 0.1, 1.3)),
    ("stats.dirichlet.logpdf_alpha", (X,), lambda m, a:
        m.scipy.stats.dirichlet.logpdf(m.numpy.asarray([0.2, 0.3, 0.5]), a)),
    ("stats.mvn.logpdf_mean", (X,), lambda m, mu: m.scipy.stats.multivariate_normal.logpdf(
        m.numpy.asarray([0.5, -0.2, 1.0]), mu, m.numpy.asarray(COV3))),
    ("linalg.expm", ([0.3, -0.7, 1.1],), lambda m, v: m.scipy.linalg.expm(
        m.numpy.outer(v, m.numpy.asarray([1.0, 0.5, -0.2])) + m.numpy.eye(3) * v[0])),
    ("linalg.expm_big", ([0.3, -0.7, 1.1],), lambda m, v: m.scipy.linalg.expm(
        8.0 * m.numpy.outer(v, m.numpy.asarray([1.0, 0.5, -0.2])) + m.numpy.eye(3) * v[1])),
    ("linalg.lu_solve", (X,), lambda m, v: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(
        m.numpy.asarray(GEN3) + m.numpy.diag(v)), m.numpy.asarray(B3))),
    ("linalg.cho_solve", (X,), lambda m, v: m.scipy.linalg.cho_solve(m.scipy.linalg.cho_factor(
        m.numpy.asarray(SPD3) + m.numpy.diag(v)), m.numpy.asarray(B3))),
    ("linalg.solve_triangular", (X,), lambda m, v: m.scipy.linalg.solve_triangular(
        m.numpy.asarray(SPD3) + m.numpy.diag(v), m.numpy.asarray(B3), trans=1, lower=True)),
    ("signal.convolve", (X,), lambda m, v: m.scipy.signal.convolve(m.numpy.asarray(SIG4), v, mode="same")),
    ("signal.correlate", (X,), lambda m, v: m.scipy.signal.correlate(m.numpy.asarray(SIG4), v, mode="valid")),
    ("fft.rfft", ([0.3, 1.7, 4.2, -1.0, 0.5],), lambda m, x:
        m.numpy.abs(m.numpy.fft.rfft(x, n=6, norm="ortho")) ** 2),
    ("fft.irfft", ([0.3, 1.7, 4.2],), lambda m, x: m.numpy.fft.irfft(x * (1.0 + 0.5j), n=5)),
    ("fft.hfft", ([0.3, 1.7, 4.2],), lambda m, x: m.numpy.fft.hfft(x * (1.0 - 0.25j), n=4, norm="forward")),
    ("fft.fft2", ([0.3, 1.7, 4.2],), lambda m, x:
        m.numpy.real(m.numpy.fft.fft2(m.numpy.outer(x, x) * (1.0 + 1.0j), s=(2, 4)))),
]


# jax 0.10.2 (x64): (value, grad, hessian) of sum(sin(fn(m, x, ...))) in x
STORED = {'fft.fft2': ([[12.399999999999999, -4.4, 5.6, -11.2], [-8.68, 3.08, -3.92, 7.84]],
              [10.109457268392722, 13.109902221402562, 4.3805803345807295],
              [[-24.148970466689956, 15.306979105200512, 9.678891333978095],
               [15.306979105200506, -54.84556408319231, -13.241278265444022],
               [9.67889133397809, -13.241278265444018, -6.66379158994096]]),
 'fft.hfft': ([1.975, -1.1875, 0.275, -0.7625000000000001],
              [0.4165573856530997, -0.634214487016437, -0.13198815166458716],
              [[0.026700342961818335, -0.0883806650885409, -0.1755706942577171],
               [-0.0883806650885409, -0.2724568229393556, -0.07358656902520017],
               [-0.1755706942577171, -0.07358656902520017, 0.026700342961818335]]),
 'fft.irfft': ([2.42, -1.9061158218409773, 0.6280574822834356, -0.5700234935335406, -0.2719181669089181],
               [0.3068981400593166, -0.5065442039776967, -0.15574785798357205],
               [[0.02017525705979281, -0.01896420307036207, -0.19130023615387468],
                [-0.018964203070362073, -0.16649888699767168, -0.006560030529506586],
                [-0.19130023615387465, -0.006560030529506641, 0.03402450502552582]]),
 'fft.rfft': ([5.415000000000002, 3.651666666666667, 3.0350000000000006, 3.081666666666667],
              [1.1478455508907635, 1.360349545425855, -2.5536763220981364, 3.893005363645837,
               0.7969606670589396],
              [[1.7146519383668644, 3.4243375143587946, 2.939826675920645, 3.203669451960503,
                2.889402014529101],
               [3.4243375143587946, 2.7363103081969475, 4.317373898519122, 2.889402014529101,
                2.536824791610468],
               [2.939826675920645, 4.317373898519122, 2.685885646805404, 3.650529238169088,
                1.918168306090561],
               [3.2036694519605025, 2.889402014529101, 3.650529238169088, 1.714651938366865,
                3.4243375143587946],
               [2.889402014529101, 2.536824791610468, 1.918168306090561, 3.4243375143587946,
                2.7363103081969475]]),
 'linalg.cho_solve': ([0.08859310754101139, 0.38692721800686714, 0.4642448391335678],
                      [-0.016083820710814514, -0.05924085636636515, -0.057863267799590376],
                      [[0.007884540239235089, -0.004146571558655408, -0.001668927855246952],
                       [-0.004146571558655408, 0.023659831370690804, -0.0002928065494113573],
                       [-0.0016689278552469524, -0.0002928065494113572, 0.016280515190355012]]),
 'linalg.expm': ([[1.7047524449343212, 0.177446818679159, -0.07097872747166362],
                  [-0.8280851538360755, 0.9358162306579655, 0.16561703076721507],
                  [1.301276670313833, 0.6506383351569166, 1.0896034735132365]],
                 [1.6667353149715656, 0.9552344554570307, 0.6610471186581185],
                 [[-11.518621083377663, -0.5857090363996131, -1.1220271726616922],
                  [-0.5857090363996128, 0.8452259384943306, -0.2654708931517608],
                  [-1.1220271726616922, -0.2654708931517608, -1.4149084588972365]]),
 'linalg.expm_big': ([[0.9847147965980119, 0.24406474640330114, -0.09762589856132045],
                      [-1.1389688165487386, -0.07289910448295978, 0.2277937633097477],
                      [1.7898081402908759, 0.8949040701454379, 0.13862367573323436]],
                     [-0.22205741061523288, 1.0466831284957572, 0.15065652308078226],
                     [[-25.392991520426133, -23.347488257433888, -4.603674692618677],
                      [-23.347488257433866, -18.879446219623176, -3.510196207376297],
                      [-4.603674692618686, -3.5101962073763, -0.35221272103838674]]),
 'linalg.lu_solve': ([0.40639872424189566, 0.15149627488600403, 0.3373782174270551],
                     [-0.18418449215551155, -0.015036458567205679, -0.021333581787204854],
                     [[-0.058791452734014225, 0.054335889049505266, -0.015019842106934201],
                      [0.054335889049505266, -0.009532773141479932, 0.0015819010311731198],
                      [-0.015019842106934201, 0.0015819010311731183, 0.004420266822416625]]),
 'linalg.solve_triangular': ([0.08212159422834431, 0.4049416609471517, 0.4838709677419355],
                             [-0.01903368316236314, -0.059220648670103, -0.057757380735431636],
                             [[0.008822956897964364, -0.004612604091698754, -0.0019113052629831566],
                              [-0.004612604091698754, 0.022242874934839365, -0.00038660098737122847],
                              [-0.001911305262983156, -0.0003866009873712284, 0.015787907996384618]]),
 'signal.convolve': ([1.1, 0.9500000000000003, -6.65, 7.2],
                     [2.1840727122183226, 1.5820211211508304, -0.9810901934950133],
                     [[-0.5403886350078815, 3.1337960051514453, -2.5585708733514894],
                      [3.1337960051514453, -11.198219190488109, 0.07768536031221779],
                      [-2.5585708733514894, 0.07768536031221784, 0.4227429432195392]]),
 'signal.correlate': ([-1.0, 12.850000000000001],
                      [-1.3797899132807432, -0.6005815569490588, 3.1502894816573943],
                      [[-0.2778964615008084, -1.4031001080386167, 2.0997866618670056],
                       [-1.4031001080386167, 3.295923473837292, -1.2612337771736608],
                       [2.0997866618670056, -1.2612337771736608, -2.3082090079926116]]),
 'special.betainc': ([0.05230000000000012, 0.6874999999999996, 0.98801875],
                     [0.9706709520457367, 1.1592524192287101, 0.12630421400612882],
                     [[7.500273280192706, 0.0, 0.0], [0.0, -3.7463707684917815, 0.0],
                      [0.0, 0.0, -1.5794393473168415]]),
 'special.betaln': ([0.9416085398584442, 0.3796097787269952, -2.3561942557062343],
                    [-2.4143108643692757, -0.3118436022858564, 0.23960369589975883],
                    [[-6.721009867857283, 0.0, 0.0], [0.0, 0.16284556693537988, 0.0],
                     [0.0, 0.0, 0.02678344155140644]]),
 'special.digamma': ([-3.5025242222001336, 0.2085478748734939, 1.3113388912865995],
                     [-11.456374279166539, 0.7760455318293539, 0.06892765228872344],
                     [[17.468732558097244, 0.0, 0.0], [-0.0, -0.7212730603202409, -0.0],
                      [-0.0, -0.0, -0.08817662442548901]]),
 'special.entr': ([0.3611918412977808, -0.9020680268056896, -6.0273550062151555],
                  [0.19081172512448263, -0.9489722182560912, -2.355831101705962],
                  [[-3.132957080297286, -0.0, -0.0], [0.0, 1.4735047291121819, 0.0],
                   [-0.0, -0.0, -1.730833356367498]]),
 'special.gamma': ([2.991568987687588, 0.9086387328532919, 7.756689535793189],
                   [10.360348655881326, 0.11650509935757974, 0.9880605271685134],
                   [[-88.9180371871336, -0.0, -0.0], [0.0, 0.4391161039804529, 0.0],
                    [0.0, 0.0, -101.47503321733016]]),
 'special.gammainc': ([0.011996757205906256, 0.36143007689620477, 0.8644747766224706],
                      [0.0915642799914773, 0.2849248019174339, 0.06301910365644717],
                      [[0.36615652688084765, 0.0, 0.0], [0.0, -0.06633012907036645, 0.0],
                       [0.0, 0.0, -0.047684380999807985]]),
 'special.gammaincc': ([0.9880032427940938, 0.6385699231037952, 0.13552522337752934],
                       [-0.05039677032644917, -0.24458201011101202, -0.09620558406544429],
                       [[-0.20858814569254613, -0.0, -0.0], [-0.0, -0.026529346819670233, -0.0],
                        [-0.0, -0.0, 0.06057267493273745]]),
 'special.gammaln': ([1.0957979948180747, -0.0958076974070643, 2.0485556369605913],
                     [-1.601833793478076, 0.20759146434191608, -0.6029412136342323],
                     [[-5.309306429241125, 0.0, 0.0], [0.0, 0.7937555437353092, 0.0],
                      [-0.0, -0.0, -1.6505901161186356]]),
 'special.i0': ([1.0226268793515967, 1.8639649620738397, 13.44245616329765],
                [0.07905156813197911, -0.34572873639252377, 7.493508122143426],
                [[0.24977254180536734, 0.0, 0.0], [0.0, -1.7054701556781187, 0.0],
                 [0.0, 0.0, -98.44407897750088]]),
 'special.i0e': ([0.7575806251825477, 0.3405156879824709, 0.20157738405263387],
                 [-0.4687404437999502, -0.11496008555688685, -0.025517501183721814],
                 [[0.37928147506248394, 0.0, 0.0], [0.0, 0.10377347632753196, 0.0],
                  [0.0, 0.0, 0.009951965740908297]]),
 'special.i1': ([0.15169384000359282, 1.1963465656344825, 11.70562014305162],
                [0.5110440158754943, 0.42436689016279194, 6.945922541933851],
                [[0.07221593164553303, 0.0, 0.0], [0.0, -0.9135031951238098, 0.0],
                 [0.0, 0.0, 92.50851957682207]]),
 'special.i1e': ([0.11237756063983881, 0.21855280659849347, 0.17553252608646178],
                 [0.26890425726119044, -0.006440651175932189, -0.015506602623056432],
                 [[-0.5738337347744307, -0.0, -0.0], [0.0, -0.03501693863735262, 0.0],
                  [0.0, 0.0, 0.0033086103457488454]]),
 'special.kl_div': ([0.5600988793619719, 0.056048777210955025, 2.025425095451693],
                    [-1.2422845529919122, 0.267842725873759, -0.5149752653611496],
                    [[1.6817014582666783, 0.0, 0.0], [0.0, 0.583280105112683, 0.0],
                     [0.0, 0.0, -1.3401327295093703]]),
 'special.log_ndtr': ([-35.01343715991456, -1.8410216450092634, -0.02301290932896349],
                      [-7.2918291287047445, -0.4071327039866137, 0.055233233856441105],
                      [[-28.15482740182772, -0.0, -0.0], [0.0, 2.4554272473942396, 0.0],
                       [0.0, 0.0, -0.11344774912308396]]),
 'special.logsumexp_b': (4.88269242563394,
                         [0.0017333411268330582, -0.0035145224400319657, 0.17126259360178503],
                         [[0.0018186986398564915, -0.0001730708919912855, 0.008433740385829594],
                          [-0.0001730708919912855, -0.003163603902299546, -0.01710025186649639],
                          [0.008433740385829594, -0.01710025186649639, 1.0045574539621873]]),
 'special.multigammaln': ([1.6920256013114976, 4.4653925362495075, 14.617001433892888],
                          [-0.08656840859870871, -0.7243769024066207, -2.2810943433782382],
                          [[-0.8005694306070338, 0.0, 0.0], [0.0, 8.236930888004478, 0.0],
                           [0.0, 0.0, -21.92684798020101]]),
 'special.ndtri': ([-1.2815515655446004, 0.0, 1.0364333894937892],
                   [1.6252487278648244, 2.5066282746310002, 2.1843179198282376],
                   [[19.25100870688004, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, -6.120799248787932]]),
 'special.polygamma2': ([-75.27253658872594, -0.6040890841034584, -0.07176485055313112],
                        [737.2796910005954, 0.7321271899110299, 0.03802770585427124],
                        [[-79034.81341716734, -0.0, -0.0], [0.0, -1.12298973700392, 0.0],
                         [0.0, 0.0, -0.03003766661558077]]),
 'special.xlogy': ([0.0, 1.0986122886681098, 2.1972245773362196],
                   [1.0986122886681098, 0.4996844890020031, -0.6440668751047949],
                   [[-0.0, -0.0, -0.0], [-0.0, -1.074881034964431, -0.0],
                    [-0.0, -0.0, -0.9777814907664918]]),
 'special.zeta': ([37.63626829436301, 0.3020445420517296, 0.0358824252765656],
                  [-370.83739917063707, -0.4246458959814278, -0.019050649830232476],
                  [[13602.758928439407, 0.0, 0.0], [0.0, 0.8532094369923632, 0.0],
                   [0.0, 0.0, 0.015087076144849755]]),
 'stats.beta.cdf': ([0.006207395720448071, 0.28779340921080604, 0.8286514306234148],
                    [0.1527858017679133, 1.2208744129659446, 1.0447382348855658],
                    [[2.206761118534045, 0.0, 0.0], [0.0, 1.9816094857600024, 0.0],
                     [0.0, 0.0, -3.3998396106763082]]),
 'stats.beta.logpdf': ([-1.8786990609296004, 0.2415644752704904, 0.4355204497007781],
                       [-4.377543015668352, 1.9419298128162041, -1.422197014228951],
                       [[244.47598197925325, 0.0, 0.0], [-0.0, -8.724607127863997, -0.0],
                        [-0.0, -0.0, -23.068190918944833]]),
 'stats.binom.logpmf_p': ([-0.5268025782891316, -1.1631508098056793, -0.8125946474888747],
                          [-4.802328114381005, -0.7928977594409441, 4.044804966142891],
                          [[10.181734307685186, 0.0, 0.0], [0.0, -4.256750399328213, 0.0],
                           [0.0, 0.0, 20.365064736038427]]),
 'stats.cauchy.logsf': ([-0.795378797104211, -1.5269914579676367, -2.3254884641078206],
                        [-0.3709222751352986, -0.019631432756827966, 0.15678336328052875],
                        [[0.08972531945682301, -0.0, -0.0], [-0.0, 0.20676043986815903, -0.0],
                         [-0.0, -0.0, 0.004543583193562143]]),
 'stats.dirichlet.logpdf_alpha': (0.14950745134958288,
                                  [3.5942800372049737, 0.32554853695493, -0.25981322337008916],
                                  [[-13.903659181887253, -0.005202934679762544, 0.31529401688533903],
                                   [-0.005202934679762503, -0.627487046176147, 0.18592563578440177],
                                   [0.3152940168853391, 0.18592563578440177, -0.10290941402134943]]),
 'stats.expon.logcdf': ([-1.9477392549731793, -0.34540698605147774, -0.04362553278671611],
                        [-1.70245814398993, 0.29861360822087557, 0.034268223558350026],
                        [[29.074831890137244, 0.0, 0.0], [-0.0, -0.2903697254255114, -0.0],
                         [-0.0, -0.0, -0.027484290173588357]]),
 'stats.gamma.cdf': ([0.0025040942821810378, 0.21772401382158324, 0.7225802050842792],
                     [0.02993880872919405, 0.2253165778602665, 0.10377756529737164],
                     [[0.20150896808810853, 0.0, 0.0], [0.0, 0.026410932184806397, 0.0],
                      [0.0, 0.0, -0.054519917495035285]]),
 'stats.gamma.logpdf': ([-3.5085965541389514, -1.4663573185422747, -1.977959224922408],
                        [-6.282544390870054, 0.017541941147094797, 0.15973966010987964],
                        [[18.74701237680703, 0.0, 0.0], [0.0, -0.03292329121243726, 0.0],
                         [0.0, 0.0, 0.1847476003959281]]),
 'stats.logistic.logpdf': ([-1.654569959078741, -2.0056212934362883, -3.4998136922222542],
                           [0.004941480949442579, 0.17754343414624044, 0.661415083353355],
                           [[0.028085489929350668, 0.0, 0.0], [0.0, 0.24832037963357817, 0.0],
                            [0.0, 0.0, -0.13136131823930675]]),
 'stats.mvn.logpdf_mean': (-10.903537831673948,
                           [-0.05154375179117583, 0.1711895216932119, 0.3334933202722961],
                           [[-0.26532507219198687, 1.0297104981000489, 2.0195275884135526],
                            [1.0297104981000489, -3.3895210505456395, -6.716119290962169],
                            [2.019527588413552, -6.716119290962168, -13.015684720928183]]),
 'stats.nbinom.logpmf_p': ([-5.756462732485113, -1.6432557927101747, -7.429707624670075],
                           [21.61148203474342, -0.0723960760068636, -12.51121303182239],
                           [[-530.3040987509571, -0.0, -0.0], [0.0, 2.300505329423399, 0.0],
                            [0.0, 0.0, 748.8831818158947]]),
 'stats.norm.logcdf': ([-27.384307498811076, -0.633638229537986, -0.012931461650312998],
                       [-3.4556236266046745, 0.4646619320880523, 0.02581961950347717],
                       [[23.7907217983047, 0.0, 0.0], [0.0, -0.09857334715800627, 0.0],
                        [0.0, 0.0, -0.04496394245170005]]),
 'stats.pareto.logpdf': ([-0.6742872085604984, -2.1542861864306158, -3.9901218248651507],
                         [-1.4389645314673627, 0.6649272614115417, 0.472205311717008],
                         [[2.875957313172092, 0.0, 0.0], [0.0, 0.9863124378404691, 0.0],
                          [-0.0, -0.0, -0.4791790792714767]]),
 'stats.poisson.logpmf_mu': ([-0.5, -1.3068528194400535, -2.2944302994414976],
                             [-0.8775825618903728, 0.0, -0.4414082357209822],
                             [[0.479425538604203, 0.0, 0.0], [0.0, -0.1304447545208132, 0.0],
                              [0.0, 0.0, 0.7009089006460499]]),
 'stats.t.logpdf': ([-1.2954939681633255, -2.1079701647639077, -4.088048656336299],
                    [-0.044615837156726505, 0.4223397996105697, 0.39878617445768555],
                    [[-0.1929716575789613, 0.0, 0.0], [0.0, 0.6500357791390955, 0.0],
                     [0.0, 0.0, -0.4357876600806769]]),
 'stats.truncnorm.cdf': ([0.18309708152134452, 0.4169887514289859, 0.8083196071535174],
                         [0.3524133261890663, 0.37132541348861825, 0.18428693106299165],
                         [[0.12345060128068633, 0.0, 0.0], [0.0, -0.06680125530787388, 0.0],
                          [0.0, 0.0, -0.1922509726932902]]),
 'stats.truncnorm.logpdf': ([-1.0260937956741647, -0.9010937956741647, -1.3212326845630535],
                            [0.21590153908942813, -0.0, -0.18866615109543372],
                            [[-0.21134953282396132, 0.0, 0.0], [0.0, -0.4310783312588066, 0.0],
                             [0.0, 0.0, 0.39393407595517005]])}


@pytest.fixture(scope="module")
def jax_x64():
    """jax with float64 enabled (restored afterwards), and its scipy submodules loaded."""
    jax = pytest.importorskip("jax")
    for sub in ("linalg", "signal", "special", "stats"):
        importlib.import_module(f"jax.scipy.{sub}")
    before = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield jax
    jax.config.update("jax_enable_x64", before)


def _scalar(m, fn, args):
    return lambda x: m.numpy.sum(m.numpy.sin(fn(m, x, *args[1:])))


def _fgrad_results(fn, args):
    args = [fnp.asarray(a) for a in args]
    f = _scalar(F, fn, args)
    return fn(F, *args), fgrad.grad(f)(args[0]), fgrad.hessian(f)(args[0])


def _close(actual, expected, what):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=1e-9, atol=1e-11, err_msg=what)


@pytest.mark.parametrize("name,args,fn", CASES, ids=[c[0] for c in CASES])
def test_value_grad_hessian_match_stored_jax(name, args, fn):
    value, grad, hess = _fgrad_results(fn, args)
    sv, sg, sh = STORED[name]
    _close(value, sv, f"{name} value")
    _close(grad, sg, f"{name} gradient")
    _close(hess, sh, f"{name} Hessian")


@pytest.mark.slow  # jax traces and compiles 3 programs per case (~30 s in all)
@pytest.mark.parametrize("name,args,fn", CASES, ids=[c[0] for c in CASES])
def test_value_grad_hessian_match_live_jax(name, args, fn, jax_x64):
    jax = jax_x64
    import jax.numpy as jnp

    jm = types.SimpleNamespace(numpy=jnp, scipy=jax.scipy)
    jargs = [jnp.asarray(np.asarray(a, np.float64)) for a in args]
    f = _scalar(jm, fn, jargs)
    expected = (fn(jm, *jargs), jax.grad(f)(jargs[0]), jax.hessian(f)(jargs[0]))
    for what, a, e in zip(("value", "gradient", "Hessian"), _fgrad_results(fn, args), expected):
        _close(a, e, f"{name} {what} vs live jax")


# -- the FFT ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fft_type,n", [("RFFT", 5), ("RFFT", 6), ("IRFFT", 5), ("IRFFT", 6),
                                        ("FFT", 4), ("IFFT", 3)])
def test_fft_transpose_is_the_adjoint(fft_type, n):
    """<ct, L x> == Re(sum T(ct) * x) for every variant (JAX's pairing for complex maps);
    IRFFT needs the Hermitian weights, RFFT the zero-padded FFT."""
    rng = np.random.default_rng(n)
    shape = (2, n // 2 + 1) if fft_type == "IRFFT" else (2, n)
    x = rng.normal(size=shape)
    if fft_type != "RFFT":
        x = x + 1j * rng.normal(size=shape)
    out, vjp = fgrad.vjp(lambda a: fgrad.lax.fft(a, fft_type, (n,)), fnp.asarray(x))
    ct = rng.normal(size=out.shape) + (1j * rng.normal(size=out.shape) if out.dtype.kind == "c" else 0)
    (tx,) = vjp(fnp.asarray(ct))
    lhs = np.real(np.sum(ct * np.asarray(out)))
    rhs = np.real(np.sum(np.asarray(tx) * x))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


def test_fft_dtypes_follow_numpy():
    x32 = fnp.ones((4,), dtype=np.float32)
    assert fnp.fft.fft(x32).dtype == np.complex64
    assert fnp.fft.rfft(x32).dtype == np.complex64
    assert fnp.fft.irfft(fnp.fft.rfft(x32)).dtype == np.float32
    assert fnp.fft.fft(fnp.arange(4)).dtype == np.complex128
    assert fgrad.grad(lambda x: fnp.sum(fnp.abs(fnp.fft.rfft(x))))(x32).dtype == np.float32


def test_fft_bad_inputs():
    x = fnp.ones((4,))
    with pytest.raises(ValueError, match="norm"):
        fnp.fft.fft(x, norm="sideways")
    with pytest.raises(TypeError, match="real"):
        fnp.fft.rfft(x + 1j)
    with pytest.raises(ValueError, match="repeated"):
        fnp.fft.fftn(fnp.ones((2, 2)), axes=(0, 0))
    with pytest.raises(ValueError, match="data points"):
        fnp.fft.fft(x, n=0)
    with pytest.raises(np.exceptions.AxisError):
        fnp.fft.fft(x, axis=1)
    with pytest.raises(ValueError, match="different lengths"):
        fnp.fft.fftn(fnp.ones((2, 2)), s=(2,), axes=(0, 1))
    with pytest.raises(TypeError, match="complex"):
        fgrad.lax.fft(x, "FFT", (4,))


def test_fft_under_jit_vmap_and_grad():
    x = fnp.asarray(np.random.default_rng(0).normal(size=(3, 8)))

    def power(v):
        return fnp.sum(fnp.abs(fnp.fft.rfft(v, norm="ortho")) ** 2)

    expected = np.stack([np.sum(np.abs(np.fft.rfft(r, norm="ortho")) ** 2) for r in np.asarray(x)])
    np.testing.assert_allclose(fgrad.vmap(power)(x), expected, rtol=1e-12)
    np.testing.assert_allclose(fgrad.jit(fgrad.vmap(fgrad.grad(power)))(x), fgrad.vmap(fgrad.grad(power))(x),
                               rtol=1e-12)


# -- special: derivatives that must raise, conventions -------------------------------------------

def test_underived_arguments_raise():
    # first derivatives in the shape parameters exist (tests/test_scipy_more.py); second ones raise
    with pytest.raises(NotImplementedError, match="shape a"):
        fgrad.grad(fgrad.grad(lambda a: fsp.gammainc(a, 2.0)))(1.5)
    with pytest.raises(NotImplementedError, match="order n"):
        fgrad.grad(lambda n: fsp.polygamma(n, 2.0))(1.0)
    with pytest.raises(NotImplementedError, match="betainc"):
        fgrad.grad(fgrad.grad(lambda a: fsp.betainc(a, 2.0, 0.5)))(1.5)


def test_derivative_chain_of_the_gamma_family():
    """d gammaln = digamma, d digamma = polygamma(1), d polygamma(1) = polygamma(2): third
    derivatives by nesting grad."""
    x = 1.7
    d3 = fgrad.grad(fgrad.grad(fgrad.grad(fsp.gammaln)))(x)
    np.testing.assert_allclose(d3, fsp.polygamma(2, x), rtol=1e-13)
    np.testing.assert_allclose(fgrad.grad(fsp.digamma)(x), fsp.polygamma(1, x), rtol=1e-13)


def test_xlogy_at_zero():
    assert float(fsp.xlogy(0.0, 0.0)) == 0.0
    np.testing.assert_allclose(fgrad.grad(lambda x: fsp.xlogy(x, 3.0))(0.0), np.log(3.0))
    assert fsp.xlogy(fnp.ones(2, dtype=np.float32), 2.0).dtype == np.float32


def test_xlogy_xlog1py_keep_nan_of_y_at_zero():
    # JAX and SciPy: a NaN y propagates even where x == 0 (fgrad gave 0; found by torch.special.xlogy's
    # docstring example)
    y = fnp.asarray([np.nan, 0.0, 2.0])
    want_y, want_1p = [np.nan, 0.0, 0.0], [np.nan, 0.0, 0.0]  # scipy.special.xlogy(0, y) / xlog1py(0, y)
    np.testing.assert_array_equal(fsp.xlogy(fnp.zeros(3), y), want_y)
    np.testing.assert_array_equal(fsp.xlog1py(fnp.zeros(3), y), want_1p)
    assert float(fgrad.grad(lambda x: fsp.xlogy(x, 3.0))(0.0)) == pytest.approx(np.log(3.0))
    scipy_special = pytest.importorskip("scipy.special")
    np.testing.assert_array_equal(scipy_special.xlogy(0.0, np.asarray(y)), want_y)
    np.testing.assert_array_equal(scipy_special.xlog1py(0.0, np.asarray(y)), want_1p)
    jsp = pytest.importorskip("jax.scipy.special")
    np.testing.assert_array_equal(jsp.xlogy(0.0, np.asarray(y)), want_y)


def test_logsumexp_sign_and_edges():
    a = fnp.asarray([0.0, np.log(2.0)])
    out, sign = fsp.logsumexp(a, b=fnp.asarray([1.0, -1.0]), return_sign=True)
    np.testing.assert_allclose(out, 0.0, atol=1e-15)
    assert float(sign) == -1.0
    assert np.isnan(float(fsp.logsumexp(a, b=fnp.asarray([1.0, -1.0]))))
    assert float(fsp.logsumexp(fnp.asarray([-np.inf, -np.inf]))) == -np.inf
    assert float(fsp.logsumexp(fnp.asarray([np.inf, 0.0]))) == np.inf


def test_special_functions_reject_complex():
    with pytest.raises(TypeError, match="complex128"):
        fsp.gammaln(fnp.asarray([1.0 + 1j]))


# -- stats: second derivatives of log densities ---------------------------------------------------

def test_gamma_logpdf_hessian_in_shape_and_scale():
    """Hessian of sum(gamma.logpdf(x; a, scale)) in (a, scale): the Fisher-information
    building block; analytic: d2/da2 = -n polygamma(1, a), d2/da dscale = -n / scale,
    d2/dscale2 = n a / scale^2 - 2 sum(x) / scale^3."""
    x = fnp.asarray([0.5, 1.2, 3.0, 2.2])
    n, sx = 4, float(np.sum(np.asarray(x)))

    def ll(theta):
        return fnp.sum(fst.gamma.logpdf(x, theta[0], 0.0, theta[1]))

    a, s = 2.5, 1.3
    h = fgrad.hessian(ll)(fnp.asarray([a, s]))
    expected = [[-n * float(fsp.polygamma(1, a)), -n / s], [-n / s, n * a / s**2 - 2 * sx / s**3]]
    np.testing.assert_allclose(h, expected, rtol=1e-12)


def test_out_of_support_gives_minus_inf_and_finite_gradients():
    g = fgrad.grad(lambda s: fnp.sum(fst.gamma.logpdf(fnp.asarray([-1.0, 1.0]), 2.0, 0.0, s)))(1.5)
    assert np.isfinite(float(g))
    assert float(fst.gamma.logpdf(-1.0, 2.0)) == -np.inf
    assert float(fst.beta.logpdf(1.5, 2.0, 2.0)) == -np.inf
    assert float(fst.poisson.logpmf(1.5, 2.0)) == -np.inf
    assert float(fst.dirichlet.logpdf(fnp.asarray([0.5, 0.6]), fnp.asarray([1.0, 1.0]))) == -np.inf


def test_stats_keep_float32():
    x = fnp.asarray([0.5, 1.5], dtype=np.float32)
    for out in (fst.norm.logpdf(x), fst.gamma.logpdf(x, 2.0), fst.beta.cdf(x / 2, 2, 3), fst.t.pdf(x, 3.0),
                fst.poisson.logpmf(x, 1.0)):
        assert out.dtype == np.float32


# -- linalg -----------------------------------------------------------------------------------------

def test_lu_of_a_singular_matrix_matches_scipy():
    sla = pytest.importorskip("scipy.linalg")
    a = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 2.0], [1.0, 3.0, 0.0]])
    packed, piv = fl.lu_factor(fnp.asarray(a))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_lu, ref_piv = sla.lu_factor(a)
    np.testing.assert_allclose(packed, ref_lu)
    np.testing.assert_array_equal(piv, ref_piv)


def test_expm_gradient_matches_frechet_derivative():
    rng = np.random.default_rng(3)
    a, e = rng.normal(size=(3, 3)), rng.normal(size=(3, 3))
    _, t = fgrad.jvp(fl.expm, (fnp.asarray(a),), (fnp.asarray(e),))
    np.testing.assert_allclose(t, fl.expm_frechet(fnp.asarray(a), fnp.asarray(e), compute_expm=False),
                               rtol=1e-11, atol=1e-12)


def test_expm_traces_under_jit():
    a = fnp.asarray([[0.0, 40.0], [-40.0, 0.0]])  # needs squarings: a rotation by 40 rad
    expected = [[np.cos(40.0), np.sin(40.0)], [-np.sin(40.0), np.cos(40.0)]]
    np.testing.assert_allclose(fgrad.jit(fl.expm)(a), expected, atol=1e-12)


def test_linalg_bad_inputs():
    with pytest.raises(ValueError, match="square"):
        fl.expm(fnp.ones((2, 3)))
    with pytest.raises(ValueError, match="trans"):
        fl.solve_triangular(fnp.eye(2), fnp.ones(2), trans=3)
    with pytest.raises(ValueError, match="right-hand side"):
        fl.cho_solve((fnp.eye(2), True), fnp.ones(3))
    with pytest.raises(TypeError, match="rank at least 2"):
        fl.lu(fnp.ones(3))  # (rectangular matrices are factored: tests/test_jax_api_round7_linalg.py)


# -- signal and optimize -------------------------------------------------------------------------

def test_signal_bad_inputs():
    with pytest.raises(ValueError, match="dimensionality"):
        fsig.convolve(fnp.ones(3), fnp.ones((2, 2)))
    with pytest.raises(ValueError, match="mode"):
        fsig.convolve(fnp.ones(3), fnp.ones(2), mode="wrap")
    with pytest.raises(ValueError, match="valid"):
        fsig.convolve(fnp.ones((3, 1)), fnp.ones((1, 3)), mode="valid")


def test_bfgs_finds_the_rosenbrock_minimum():
    def rosen(x):
        return fnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    # (from [-1.2, 1.0, 0.5, -0.3] JAX's line search fails: tests/test_jax_programs_round10.py)
    res = fo.minimize(rosen, fnp.asarray([1.2, 1.0, 0.8, 0.7]), method="BFGS")
    assert int(res.status) == 0 and bool(res.success)
    np.testing.assert_allclose(res.x, np.ones(4), atol=1e-6)
    assert float(fnp.max(fnp.abs(res.jac))) <= 1e-5
    assert (int(res.nit), int(res.nfev)) == (22, 27)  # JAX 0.10.2's


def test_bfgs_quadratic_matches_scipy_and_hess_inv():
    so = pytest.importorskip("scipy.optimize")
    a = np.array([[3.0, 0.5], [0.5, 1.0]])
    b = np.array([1.0, -2.0])

    def f(x):
        return 0.5 * x @ fnp.asarray(a) @ x - fnp.asarray(b) @ x

    res = fo.minimize(f, fnp.zeros(2), method="BFGS")
    ref = so.minimize(lambda x: 0.5 * x @ a @ x - b @ x, np.zeros(2), method="BFGS")
    np.testing.assert_allclose(res.x, np.linalg.solve(a, b), atol=1e-5)
    np.testing.assert_allclose(res.x, ref.x, atol=1e-5)
    np.testing.assert_allclose(res.hess_inv, np.linalg.inv(a), atol=3e-3)


def test_minimize_rejects_other_methods():
    with pytest.raises(ValueError, match="not recognized"):
        fo.minimize(lambda x: fnp.sum(x**2), fnp.ones(2), method="Nelder-Mead")
    with pytest.raises(TypeError, match="unexpected options"):
        fo.minimize(lambda x: fnp.sum(x**2), fnp.ones(2), method="BFGS", options={"bogus": 1})


def test_correlate2d_same_is_centred_as_scipys():
    """correlate2d's 'same' crop puts the extra element on the left for even kernel sizes
    (SciPy's and JAX's), unlike correlate's; it used correlate's and was shifted by one."""
    a = np.array([[1.0, 2.0, 3.0]])
    b = np.array([[1.0, 10.0]])
    got = np.asarray(fsig.correlate2d(fnp.asarray(a), fnp.asarray(b), "same"))
    np.testing.assert_allclose(got, [[21.0, 32.0, 3.0]])  # scipy.signal.correlate2d (stored)
    sig = pytest.importorskip("scipy.signal")
    rng = np.random.default_rng(0)
    for sa in [(2, 3), (3, 4), (4, 1)]:
        for sb in [(2, 2), (1, 3), (3, 2)]:
            x, k = rng.standard_normal(sa), rng.standard_normal(sb)
            for mode in ("full", "same"):
                np.testing.assert_allclose(
                    np.asarray(fsig.correlate2d(fnp.asarray(x), fnp.asarray(k), mode)),
                    sig.correlate2d(x, k, mode), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype, x", [(np.float32, 50.0), (np.float64, 400.0)])
def test_logsumexp_with_zero_weights_ignores_them_in_its_shift(dtype, x):
    """A zero-weighted entry must not set the stabilizing shift: the others' sum would then
    underflow and the derivatives become NaN (optax's focal loss Hessian).  ``b == 0`` entries
    get a zero gradient, as in JAX; both faces of logsumexp agree."""
    from fgrad.scipy.special import logsumexp

    def f(v):
        a = fnp.stack([fgrad.nn.log_sigmoid(v), fgrad.nn.log_sigmoid(-v)])
        return logsumexp(a, b=fnp.asarray([0.0, 1.0], dtype))

    v = fnp.asarray(x, dtype)
    np.testing.assert_allclose(float(f(v)), -x, rtol=1e-6)
    g, h = fgrad.grad(f)(v), fgrad.hessian(f)(v)
    assert np.isfinite(float(g)) and np.isfinite(float(h))
    np.testing.assert_allclose(float(g), -1.0, rtol=1e-6)  # d/dv log_sigmoid(-v) = -sigmoid(v)
    assert abs(float(h)) < 1e-20
    vals = fnp.asarray([1.0, 2.0, 3.0], dtype)
    w = fnp.asarray([0.5, 0.0, 2.0], dtype)
    np.testing.assert_allclose(np.asarray(fgrad.grad(lambda a: logsumexp(a, b=w))(vals)),
                               np.asarray(fgrad.grad(lambda a: fgrad.nn.logsumexp(a, b=w))(vals)))


# JAX 0.10.2's result dtypes: jax.scipy.signal promotes its inputs to an inexact dtype
# (promote_dtypes_inexact), so integer and bool inputs convolve as floats
_SIGNAL_DTYPE_CASES = [  # (function, dtype1, dtype2, x64, JAX's result dtype)
    ("convolve", "int32", "int32", False, "float32"),
    ("convolve", "bool", "bool", False, "float32"),
    ("correlate", "int32", "int32", False, "float32"),
    ("convolve2d", "int32", "int32", False, "float32"),
    ("correlate2d", "int32", "int32", False, "float32"),
    ("fftconvolve", "int32", "int32", False, "float32"),
    ("convolve", "int64", "int64", True, "float64"),
    ("convolve", "int64", "float32", True, "float32"),
    ("fftconvolve", "int8", "int8", True, "float32"),
    ("convolve2d", "int16", "int8", True, "float32"),
]


@pytest.mark.parametrize("fn, dt1, dt2, x64, expected", _SIGNAL_DTYPE_CASES)
def test_signal_convolutions_of_integers_are_inexact_as_jaxs(fn, dt1, dt2, x64, expected):
    """fgrad kept SciPy's integer results (``convolve([1, 2, 3], [0, 1, 0.5])`` of ints was
    int32); JAX's docstring examples print float32 (found by running them)."""
    a = np.array([[1, 2, 3]] if fn.endswith("2d") else [1, 2, 3])
    b = np.array([[0, 1, 1]] if fn.endswith("2d") else [0, 1, 1])
    with fgrad.enable_x64(x64):
        out = getattr(fsig, fn)(fnp.asarray(a, dt1), fnp.asarray(b, dt2))
        assert out.dtype == np.dtype(expected)
        x, k = a.astype(dt1).astype(float).ravel(), b.astype(dt2).astype(float).ravel()
        ref = np.correlate(x, k, "full") if fn.startswith("correlate") else np.convolve(x, k)
        ref = ref.reshape(out.shape)
        np.testing.assert_allclose(np.asarray(out), ref, atol=1e-5)
    jax = pytest.importorskip("jax")
    jsig = importlib.import_module("jax.scipy.signal")
    with jax.enable_x64(x64):
        live = getattr(jsig, fn)(jax.numpy.asarray(a, dt1), jax.numpy.asarray(b, dt2))
        assert str(live.dtype) == expected
        np.testing.assert_allclose(np.asarray(live), ref, atol=1e-5)
