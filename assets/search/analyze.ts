// Text analysis for search: the TypeScript twin of internal/analysis/analyze.go.
// The browser analyses queries with it, and the static index was built with
// the Go side, so both must give the same terms for every input; the shared
// vectors in testdata/analysis.json and a differential test keep them
// byte-identical. The rules are documented once, on Analyze in analyze.go.
//
// Offsets differ on purpose: Go reports UTF-8 byte offsets, this module
// UTF-16 code unit offsets, which is what String.prototype.slice and DOM
// ranges take.
//
// Code points are classified and folded by tables derived from Unicode 15.0
// in Go (the generated block below), not by \p{L} or normalize(): browsers
// ship different Unicode versions, and the index must not depend on which
// one a reader has.

/** Version of the analysis rules; equals Version in internal/analysis/analyze.go. */
export const ANALYSIS_VERSION = 1;

/** Longest term in UTF-8 bytes; longer terms are cut at a code point boundary. */
export const MAX_TERM_BYTES = 64;

/** One term of an analysed text. */
export interface Token {
  /** The folded term. */
  term: string;
  /** UTF-16 offsets of the term's source: text.slice(start, end). */
  start: number;
  end: number;
  /** Word position; joined forms of a compound share their first leaf's. */
  pos: number;
}

// BEGIN GENERATED TABLES (go test ./internal/analysis -run TestAnalyzeTablesUpToDate -update-analysis)
// Derived from Unicode 15.0.0 by internal/analysis/analyze_gen_test.go.
/** The Unicode version the tables were derived from. */
export const TABLES_UNICODE_VERSION = "15.0.0";
// Ranges: varints (see VARINT_DIGITS) of lo delta, class*4+kind, and arg (zigzag) unless kind is ALT_PAIR.
const RANGES =
  "000BdB801B401B001g0aB001005B001cC0q001B001002B80100180q00BfkEh1002401004gHv20018BQe1003gIf1kEl1005d0" +
  "6d21cG71d44d64cGn1cG52d84001cGh1da4cG71dc19e19069218I719449648In18I529840018Ih19a48I719c18Ib1f06fg8f" +
  "i4f4afk8fm4f6afo2fq2fs2801fuafB068Nl1e2f86fB22fB46fB68fB86facfBa2fBc3fBe68Qn18Rr1cN41e4cMs1e2cMq2e28" +
  "01cEu1cMk1cMm1fBg2cMq1cMu1801cN61cSr1e28Sr1801cN61cNa1801cNc1f82e4cNk1e2cNk1802e2cNk1fa2cNi2e2fBe2cN" +
  "m1e2801k01e2802k04dBi29Bi1dBk29Bk1dBm29Bm1f02f62f82faa801f04f22fk4fs2f84fBo28Yb1dBi29Bi1fk2cG11cDf1f" +
  "B02f02f22f82f04f44f64f84fB44fa4fB62fB82e2fm2cI31801e2fBe2f02f42f88fBc28038$p1802cVCm1fg2c%11cVCg1802" +
  "e2c&11c$t1cEe1f42fq2e2fB42fBc280o8*t180B08BB7180ak0180rkBEf1kEl1kBEf1kBE11kDl1kDj1kD91kBDv1kBDt1k090" +
  "04k0c00ekHp1kBH91kBGt1kBGl1kEt1007k01001k0100h40Dge4kLl1001e2003803001cH81006cCm1001cCq1cCs1cCu1001c" +
  "D61001cDe1cDk18Ci1cC0h001cC07cu1cBk18a18g18i18k18Ba180h9Bq28068B118b18p18f1891cg18Br18Bh1dBs38t18Bb1" +
  "801eo8Db18Cv18Ct1801cDn18Dv1001e2cDb1e2801cI33dBu2cF0bcCm1cF02cC0B080B09Bu280b8C91802emfC02ea001407e" +
  "Bmcu1fC22ec801fC44e2fBu2fC64fC22fC82e2fCa4fCc2fCe4fCg2fCi6fCk2e2fCm2eBm001cD0B6002k0100680B900840Bd0" +
  "01401001402001402001401008k0r004k0400t40b001401003k02lCo2kC81k41kC81k0p401k0a40lgDCva004k02401k0CfkB" +
  "a1lCq2k0gk11001k01407002406k02402001404k02gDLvak03002k0100gk0Br002k0D500egDYvak0Bc004k01002k01002k0B" +
  "e00ik0s004k0b005k0o001k06009k0Ca001k0C6lCs1k07lCu1k02lD01k0B3lD21lD41lD61lD81lDa1lDc1lDe1lDg1k04002g" +
  "ETba001k0j001k08002k02002k0m001k07001k01003k04002k09002k02002lDi1lDk1k02008k01004lDm1lDo1001lDq1k040" +
  "02gE#bak02002k06002k01001k01002k03001k06004k02002k0m001k07001k01lDs1001k01lDu1001k02002k01001k05004k" +
  "02002k03003k01007lE01lE21lE41k01001lE61007gFDbak0600bk03001k09001k03001k0m001k07001k02001k05002k0a00" +
  "1k03001k03002k0100fk04002gFLba009k07001k03001k08002k02002k0m001k07001k02001k05002k09002k01lE81002lEa" +
  "1lEc1k01007k03004lEe1lEg1001k05002gFTba001k0700ak02001k06003k03001k02lEi1k01003k02001k01001k02003k02" +
  "003k03003k0c004k05003k03001lEk1lEm1lEo1k01002k01006k0100egF#bak0300dk0d001k03001k0n001k0g002k09001k0" +
  "2lEq1001k04007k02001k03002k01002k04002gGDba008k07001k04001k08001k03001k0n001k0a001k05002k04lEs1k0400" +
  "1k01lEu1lF01001lF21lF41k02007k02006k02001k04002gGLba001k0300ck0d001k03001k0Bj001k03001lF61lF81lFa1k0" +
  "2005k0g002gGTbak09001k06001k03001k0i003k0o001k09001k01002k07003k01004k06001k01001k02lFc1k01lFe1lFg1l" +
  "Fi1k01006gG#ba002k0200dk0Bq005k0f001gHBva00B7k02001k01001k05001k0o001k01001k0n002k05001k01001k07001g" +
  "HJva002k0400B0k0100nk02006gHOvak0a001k01001k01001k01004k05lFk1k04001k04lFm1k04lFo1k04lFq1k04lFs1k0cl" +
  "Fu1k03004k02lG01k01lG21lG41k01lG61k08lG81k03001k0dlGa1k04001k04lGc1k04lGe1k04lGg1k04lGi1k0clGk1k0300" +
  "9k0100Bpk0B6lGm1k0pgIAva006k0C0gIFvak04002cOG0B6001cOG01005cOG0100280Bb001k01803o0Cv402o0Evk0C9001k0" +
  "4002k07001k01001k04002k0B9001k04002k0B1001k04002k07001k01001k04002k0f001k0Bp001k04002k0C3002k03009k0" +
  "k003k0g00gcCL%0Cgcg6002806003k0Tc002k0h001k0q005k0Cb003k0b007k0m009k0m00bk0k00ck0d001k03001k0200ck0B" +
  "k402k0u003k01004k02002gL!va006k0a00h405gL%va006k0Cp007k0Bb005k0C600ak0v001k0c004k0c00agMRbak0u002k05" +
  "00bk0Bc004k0q006gMZvak0100B5k0s004k0Bv001k0t002k01gNEva006gNFva00dk0100840v00Bhk06lGo1k01lGq1k01lGs1" +
  "k01lGu1k01lH01k03lH21k0B8lH41k01lH61k02lH81lHa1k01lHc1k09003gNRva00hk0900ck0BggNXvak0Bq00ck0Bo008gOA" +
  "va003k03gOBvak0B40028MEr18MEp18ME718ME328ME518MDn18MC718CE$61007cF#vBb002cF#v300gk03001k0B700580BckO" +
  "Ml1l21kOMn1k01kOMn2kNV91kOMn8k01kOMp1kNRj1kOMr1kOMp1kOMn2kOMl1kOO31kNP72kE71kOO91kOO72kNP11kNOv2kOOb" +
  "1k01kOO71kOO51kOAb1kOO51kNPt1kDr2kOOb1kOO52kDn1kNOl1kOO91kDd1kM!l3kMZj2kOPh1kOP11kOOt2kM#72kM!d1kM!5" +
  "280dkMTl180B2kNUh1kOTh1kNUf1kOTj1kNU51kOTj1kNU31kNU11kNTr1kOTl1kNTn2kCn1kNQl1kNTn1kC91kNQn1kNTl1kNTp" +
  "1kNTn4kNTj1kNT12kOAj1kOU11kNSp1kJn1kNSr2kOU11kNSn3kNAd140C0f02fHe6fg2fiaf4afBg2fk2fmaf64fs6fu8fHg6fB" +
  "08f88fHi4fB48fB6afB88faafHk4fBaafHm4fBc2fBe68PCr18PC518PC118PBv19Ho18PCf1802de1801f0of4gf64f8ofaefBc" +
  "8e69Hq8dHq89Hs6002dHs60029Hu8dHu89I08dI089I26002dI260029Bs8001cNZ71001cNZb1001cNZf1001cNZj19I48dI489" +
  "Hq29Hs29Hu29I029I229Bs29I420029Hq8dHq89Hu8dHu89I48dI489Hq50019Hq2dHq50018OA910039Hu30019Hu2dHs2dHu30" +
  "039I040029I02dI040049Bs49I629Bs2dBs4cOCl10059I430019I42dI22dI4300f404B9I8200iB4P*b100540500Bh40ggQDv" +
  "1kQAf1002gQDv6005kQB11gQEva006kQCt1kQCn1kQC51kQBl1kPDl1kQCp1kQCl4kQCj1kQCf200blIa100B740B100hcQJt100" +
  "4cPKn10028QK51dm39m2d62fu2001cQKd1lIc1002cQKh3dB42002lIe1lIg1lIi1001cQKj1001cOVp1001cQKr1001cQLt1cQM" +
  "j30018QMj1cQMl2cBo1cQMb18QM91kNW948QMv1001lIk18OXn18OYj1cOYl1cOXt1005fi28QO318QNt200480100hkQPd1lIm1" +
  "lIo1lIq1kQOr1lIs1lIu1lJ01lJ21kQP11lJ41lJ61kQPv1kQQj2kQQ31kQQd1lIm1lIo1lIq1kQPr1lIs1lIu1lJ01lJ21kQQ11" +
  "lJ41lJ61kQQv1kQRj2kQR31k03e2k0400WngSCt9hJ81hJa1hJc1hJe1hJg1hJi1hJk1hJm1hJo1hJq1hJs100C2kSF9qkSGtqgS" +
  "Lj1k0l00Tmk0u00BDccD0Bg80Bge2cU*d1cHOb1cU&d1802e6cVBn1cU*p1cVBt1cVBr1801e2801e2805k02cVDt2eD4801006e" +
  "4k03e2009k0100280B6001801005801002k0Bo007k0100fk0o009k07001k07001k07001k07001k07001k07001k07001k0700" +
  "1k0B000Bfk0100Olo01k01o0100po09k06001o05002o04k01004o0Cm002s02002o03001o0Cq001o04005k0Bb001o0Bj401o0" +
  "Ba003k0400ak0B000Bgo0g00B0k0a00uk08001k0f00B0k0a00B7k0f00K0o0GO000C0o0UQ0k0BEd00C3k0Be002k0Id003k0gg" +
  "CS&vak0200keBek05001k0a001k01esk0Cm00B5k09002ee802eBuk01808e4cCFA71eak01002e2cCSSf1801k01e4802ekcCSU" +
  "71cCSUt1cCSUl1cCSU11cCSU71801cCSR31cCSSj1cCSR91cB!01egcCv1cCSU51cCFDf1e4005e2001801001801e400ok03e2k" +
  "03801k0Bd004k01003k0600ak0Bk00ck0C600agCUJva006k0o003k01001k03gCUMvak0B4002k0B400co0t003k0C100ek01gC" +
  "UZva006k0ggCU#vak05001k0Bn009k0e002gCVBva006k0n003k0C900ok03002k0g002k0500ak06002k06002k06009k07001k" +
  "0700180Bb001k04809k0100680Cgk0Bb001k02002gCV#va006o0K%400co0n004o0Bh00II4o0Le002o0Da00B69Ju19K019K21" +
  "9K419K619K8200c9Ka19Kc19Ke19Kg19Ki1005kD!U71k01kD!Sp1kD!Tr1kD!V11kD!Ut2kD!Uh3kD!Tt1kD!Tr1001lKk4lKm3" +
  "kD!Vv6001kD!Vv5001kD!Vv1001kD!Vv2001kD!Vv2001kD!Vv5kD!Xb1kD!Xl1kD!X31kD!Wj1lKo1k0D200B1k0Lb00ik0C000" +
  "2k0Bm00B8k0c00440g00g40g00C0k05001k0E700240100dB8D*Nv1B4D*Nv1B0D*Nv1gD*NvaB0D*Nv1005B0D*Nv1cD*Lvq001" +
  "B0D*Nv1002B8D*Nv10018D*Nvq00boDHH71oDHMb1oDHM91oDHM71oDHM51oDHM31oDHIh1oDHIf1oDHId1oDHKn1001oDHMt1oD" +
  "HMr1oDHMp1oDHMn1oDHMl2oDHMj1oDHMh1oDHMf1oDHMd1oDHMb1oDHM91oDHM71oDHM51oDHM31oDHM11oDHLv1oDHLr1oDHLp1" +
  "oDHLn1oDHLl6oDHLh1oDHLd1oDHL91oDHL51oDHL15oDHKv1oDHKt1oDHKr6oDHKp1oDHKj1sDHQ92401oDXK12oDW*h1oDXK31o" +
  "DW*h2oDXK73oDW*j6oDXJb1oDXKl3oDXJ51oDXKna003oDXG16002oDXG56002oDXG96002oDXGd300j409007k0c001k0q001k0" +
  "j001k02001k0f002k0e00B2k0Dr00ck0Bd00ck0Bp00hk0200Dhk0100E2k0t003k0Bh00fk0s004k0B4009k0u005k0Bb005k0u" +
  "002k0B4004k08001k0500BacCgB880B8k0Ce002gECGva006cCgB400480B4004k0B8008k0Bk00ccCeb001cCef001cCe7001cC" +
  "e200180b00180f00180700180200C3k0Jn009k0m00ak0800ok06001k0Ba001k0900C5k06002k01001k0Bc001k02003k01002" +
  "k0n002k0v002k0B6008k0900Bgk0j001k02005k0B1004k0q00C6k0Bo004k0k002k0Bi001k02005k08001k03001k0t002k030" +
  "04k0a00nk0v001k0B000B0k08001k0u004k0500gk0Bm00ak0m002k0r005k0q00nk0700Cgk0C900BncE0Bj00d80Bj007k0Be0" +
  "08gEGPva00J6k0v001k0Ba001k02003k0200Cbk0Bb008k0B500rk0m00Bak0s00kk0n009k0C700bk0kgEIDbak06009k0rlKq1" +
  "k01lKs1k0elKu1k0f007k0100dk0p007gEILva006k0BelL01lL21k05001gEIQba004k04008k0B4002k01009k0C5004k04001" +
  "k02gEIZvak01001k01004k0k00bk0i001k0B5006k0400Buk07001k01001k04001k0f001k0a007k0Br005gEJLva006k04001k" +
  "08002k02002k0m001k07001k02001k05001k0a002k02002lL41lL61k01002k01006k01005k07002k07003k0500Ebk0Cb005g" +
  "EKBva004k0400uk0BrlL81lLa1k01lLc1k07001k01008gEKJva00F6k0Bm002k02lLe1lLg1k0500nk0600B2k0C1003k0100bg" +
  "ELBva00B6k0Bp007gELIva00Bmk0r002k0f004gELPvak02004k0700Fpk0Br00D5cC0B080B0gEMKvak0900ck08002k01002k0" +
  "8001k02001k0u001k01lLi1002k0900cgEMRva00C6k08002k0Be002k08001k0200rk0Bv008k01008k0Ca003k0100ik0C900I" +
  "7k09001k0Bd001k0900fgEOBvak0j005k0u002k0m001k0e00C9k07001k02001k0Bc003k01001k02001k09008gEORva006k06" +
  "001k02001k0B5001k02001k06007gEOWva00Jmk0n009k0h001k0B9003k0500dgEPRva00Cmk0100fk0l00Bbk0$q00D6k0Df00" +
  "hk0G400CSck0D100fk0BBg00gk0m00D%ak0S700INpk0Rp007k0v001gFVCva006k0Cf001gFVIva006k0u002k0500bk0Bn009k" +
  "0400cgFVRva001k07001k0l005k0j00VgcC0B080B0k0n00D9k0Cb004k0Bp007k0h00C0k02001o01k0100bk0200ek0F*o008k" +
  "0BGm00Bak0900IX7o04001o07001o02001o0J300fo0100to03002o0100eo04008k0Mc00CI4k0Db005k0d003k09007k0a003k" +
  "0200140400ESsk0Be002k0n00Quk05003k06408k08002k0700uk0400Ekk0300Drk0k00ck0k00Dck0p00E7c0q80qc0q807001" +
  "80ic0q80qc01001c02002c01002c02002c04001c0880400180100180700180bc0q80qc02001c04002c08001c0700180qc020" +
  "01c04001c05001c01003c0700180qc0q80qc0q80qc0q80qc0q80qc0q80qc0q80s002c0p00180p001806c0p00180p001806c0" +
  "p00180p001806c0p00180p001806c0p00180p001806c01801002gHLZragHL!fagHL#3agHL#nagHL$ba00Q0k0Bn004k0Bi008" +
  "k0100ek0100mk05001k0f00BCg80ak0180k00680600Glk07001k0h002k07001k02001k05005k0Bu00B1k0100Dgk0Bd003k0e" +
  "002gHQQva004k0100K1k0v00hk0BggHRLva00Omk0B0gHSLva00X6k07001k04001k02001k0f001k0G5002k0g00B9cC4B280B2" +
  "k08004gHURva00Ynk0Br001k03001k0400Cck0Bd001k0f00G2k04001k0r001k02001k01002k01001k0a001k04001k01001k0" +
  "1006k01004k01001k01001k01001k03001k02001k01002k01001k01001k01001k01001k01001k02001k01002k04001k07001" +
  "k04001k04001k01001k0a001k0h005k03001k05001k0h00S4k0d00CX3gH%#va00BA6o0BJX000B0o0EBq006o0Gu002o0FU200" +
  "eo0HJh00DAvo0Qu00BP2o0E!b005o0ED000VXCg40EA000";
// Fold strings, joined by '|'.
const FOLD_STRINGS = "a|ae|e|i|o|u|th|ss|c|d|g|h|ij|j|k|l|n|oe|r|s|t|w|y|z|f|dz|lj|nj|\u0292|\u03C3|\u03C5|\u0435|\u0475|\u0436|\u0430|\u04D9|\u0437|\u0438|\u043E|\u04E9|\u044D|\u0443|\u0447|\u044B|\u0627|\u06C1|\u0928\u093C|\u0930\u093C|\u0933\u093C|\u0915\u093C|\u0916\u093C|\u0917\u093C|\u091C\u093C|\u0921\u093C|\u0922\u093C|\u092B\u093C|\u092F\u093C|\u09C7\u09BE|\u09C7\u09D7|\u09A1\u09BC|\u09A2\u09BC|\u09AF\u09BC|\u0A32\u0A3C|\u0A38\u0A3C|\u0A16\u0A3C|\u0A17\u0A3C|\u0A1C\u0A3C|\u0A2B\u0A3C|\u0B47\u0B56|\u0B47\u0B3E|\u0B47\u0B57|\u0B21\u0B3C|\u0B22\u0B3C|\u0B92\u0BD7|\u0BC6\u0BBE|\u0BC7\u0BBE|\u0BC6\u0BD7|\u0C46\u0C56|\u0CBF\u0CD5|\u0CC6\u0CD5|\u0CC6\u0CD6|\u0CC6\u0CC2|\u0CC6\u0CC2\u0CD5|\u0D46\u0D3E|\u0D47\u0D3E|\u0D46\u0D57|\u0DD9\u0DCA|\u0DD9\u0DCF|\u0DD9\u0DCF\u0DCA|\u0DD9\u0DDF|\u0F42\u0FB7|\u0F4C\u0FB7|\u0F51\u0FB7|\u0F56\u0FB7|\u0F5B\u0FB7|\u0F40\u0FB5|\u0F71\u0F72|\u0F71\u0F74|\u0FB2\u0F80|\u0FB3\u0F80|\u0F71\u0F80|\u0F92\u0FB7|\u0F9C\u0FB7|\u0FA1\u0FB7|\u0FA6\u0FB7|\u0FAB\u0FB7|\u0F90\u0FB5|\u1025\u102E|\u1B05\u1B35|\u1B07\u1B35|\u1B09\u1B35|\u1B0B\u1B35|\u1B0D\u1B35|\u1B11\u1B35|\u1B3A\u1B35|\u1B3C\u1B35|\u1B3E\u1B35|\u1B3F\u1B35|\u1B42\u1B35|b|m|p|v|x|a\u02BE|\u03B1|\u03B5|\u03B7|\u03B9|\u03BF|\u03C9|\u03C1|-|rs|no|sm|tel|tm|fax|ii|iii|iv|vi|vii|viii|ix|xi|xii|10|11|12|13|14|15|16|17|18|19|20|ff|fi|fl|ffi|ffl|st|\u0574\u0576|\u0574\u0565|\u0574\u056B|\u057E\u0576|\u0574\u056D|\u05E9|\u05D0|\u05D0\u05DC|\u{11099}\u{110BA}|\u{1109B}\u{110BA}|\u{110A5}\u{110BA}|\u{11131}\u{11127}|\u{11132}\u{11127}|\u{11347}\u{1133E}|\u{11347}\u{11357}|\u{114B9}\u{114BA}|\u{114B9}\u{114B0}|\u{114B9}\u{114BD}|\u{115B8}\u{115AF}|\u{115B9}\u{115AF}|\u{11935}\u{11930}";
// Voicing compositions: pairs of kana and kana + U+3099, then pairs of kana and kana + U+309A.
const VOICED = "\u3046\u3094\u304B\u304C\u304D\u304E\u304F\u3050\u3051\u3052\u3053\u3054\u3055\u3056\u3057\u3058\u3059\u305A\u305B\u305C\u305D\u305E\u305F\u3060\u3061\u3062\u3064\u3065\u3066\u3067\u3068\u3069\u306F\u3070\u3072\u3073\u3075\u3076\u3078\u3079\u307B\u307C\u309D\u309E\u30A6\u30F4\u30AB\u30AC\u30AD\u30AE\u30AF\u30B0\u30B1\u30B2\u30B3\u30B4\u30B5\u30B6\u30B7\u30B8\u30B9\u30BA\u30BB\u30BC\u30BD\u30BE\u30BF\u30C0\u30C1\u30C2\u30C4\u30C5\u30C6\u30C7\u30C8\u30C9\u30CF\u30D0\u30D2\u30D3\u30D5\u30D6\u30D8\u30D9\u30DB\u30DC\u30EF\u30F7\u30F0\u30F8\u30F1\u30F9\u30F2\u30FA\u30FD\u30FE";
const SEMI_VOICED = "\u306F\u3071\u3072\u3074\u3075\u3077\u3078\u307A\u307B\u307D\u30CF\u30D1\u30D2\u30D4\u30D5\u30D7\u30D8\u30DA\u30DB\u30DD";
// END GENERATED TABLES

// Rune classes, as in analyze_impl.go.
const CLS_SEP = 0;
const CLS_IGNORE = 1;
const CLS_LOWER = 2;
const CLS_UPPER = 3;
const CLS_DIGIT = 4;
const CLS_OTHER = 5;
const CLS_CJK = 6;
const CLS_VOICE = 7;
const CLS_JOIN1 = 8; // / \ @ :
const CLS_JOIN2 = 9; // .
const CLS_JOIN3 = 10; // _ -

// Fold kinds of a range, as in analyze_impl.go.
const FOLD_DELTA = 0;
const FOLD_STRING = 1;
const FOLD_ALT_PAIR = 2;
const FOLD_ALT_STRING = 3;

const JOIN_LEVEL_CAMEL = 4;
const MAX_JOIN_LEVEL = 5;

const VARINT_DIGITS = "0123456789abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&*";

interface Tables {
  lo: Int32Array;
  info: Uint8Array; // class * 4 + kind
  arg: Int32Array;
  strs: string[];
  voiced: Map<number, number>; // kana * 2 + (mark is U+309A) -> composed
}

function decodeTables(): Tables {
  const digit = new Int8Array(128).fill(-1);
  for (let i = 0; i < VARINT_DIGITS.length; i++) digit[VARINT_DIGITS.charCodeAt(i)] = i;
  let at = 0;
  const next = (): number => {
    let v = 0;
    for (;;) {
      const d = digit[RANGES.charCodeAt(at++)];
      if (d < 32) return v * 32 + d;
      v = v * 32 + d - 32;
    }
  };
  const lo: number[] = [];
  const info: number[] = [];
  const arg: number[] = [];
  let prev = 0;
  while (at < RANGES.length) {
    prev += next();
    const i = next();
    let a = 0;
    if ((i & 3) !== FOLD_ALT_PAIR) {
      const z = next();
      a = z & 1 ? -(z + 1) / 2 : z / 2;
    }
    lo.push(prev);
    info.push(i);
    arg.push(a);
  }
  const voiced = new Map<number, number>();
  const pairs = (s: string, semi: number): void => {
    const cps = Array.from(s, (c) => c.codePointAt(0) as number);
    for (let i = 0; i + 1 < cps.length; i += 2) voiced.set(cps[i] * 2 + semi, cps[i + 1]);
  };
  pairs(VOICED, 0);
  pairs(SEMI_VOICED, 1);
  return {
    lo: Int32Array.from(lo),
    info: Uint8Array.from(info),
    arg: Int32Array.from(arg),
    strs: FOLD_STRINGS.split("|"),
    voiced,
  };
}

let tables: Tables | null = null;

// The tables are decoded on first use, so that loading the module costs
// nothing on pages where nobody searches.
function getTables(): Tables {
  if (tables === null) tables = decodeTables();
  return tables;
}

const ASCII_CLASS = ((): Uint8Array => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    if (c >= 0x61 && c <= 0x7a) t[c] = CLS_LOWER;
    else if (c >= 0x41 && c <= 0x5a) t[c] = CLS_UPPER;
    else if (c >= 0x30 && c <= 0x39) t[c] = CLS_DIGIT;
  }
  for (const c of "/\\@:") t[c.charCodeAt(0)] = CLS_JOIN1;
  t[0x2e] = CLS_JOIN2; // .
  t[0x5f] = CLS_JOIN3; // _
  t[0x2d] = CLS_JOIN3; // -
  return t;
})();

const isWordClass = (c: number): boolean => c >= CLS_LOWER && c <= CLS_OTHER;
const isJoinClass = (c: number): boolean => c >= CLS_JOIN1;

/** A decoded code point: class, fold and UTF-16 size. */
interface Decoded {
  cls: number;
  fold: string;
  size: number;
}

// decode classifies and folds the code point at UTF-16 offset i. Lone
// surrogates are separators (the tables say so), as invalid UTF-8 is in Go.
function decode(text: string, i: number, out: Decoded): void {
  const c = text.charCodeAt(i);
  if (c < 0x80) {
    const cls = ASCII_CLASS[c];
    out.cls = cls;
    out.size = 1;
    out.fold = cls === CLS_UPPER ? String.fromCharCode(c + 32) : cls === CLS_SEP ? "" : text[i];
    return;
  }
  const r = text.codePointAt(i) as number;
  out.size = r > 0xffff ? 2 : 1;
  const t = getTables();
  let lo = 0;
  let hi = t.lo.length;
  while (hi - lo > 1) {
    const m = (lo + hi) >>> 1;
    if (t.lo[m] <= r) lo = m;
    else hi = m;
  }
  const info = t.info[lo];
  const kind = info & 3;
  const odd = (r - t.lo[lo]) & 1;
  out.cls = kind >= FOLD_ALT_PAIR && odd ? CLS_LOWER : info >> 2;
  if (out.cls === CLS_SEP || out.cls === CLS_IGNORE) {
    out.fold = "";
    return;
  }
  switch (kind) {
    case FOLD_DELTA:
      out.fold = String.fromCodePoint(r + t.arg[lo]);
      break;
    case FOLD_ALT_PAIR:
      out.fold = String.fromCodePoint(odd ? r : r + 1);
      break;
    case FOLD_STRING:
    case FOLD_ALT_STRING:
      out.fold = t.strs[t.arg[lo]];
      break;
  }
}

function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

// cutTerm cuts a term to MAX_TERM_BYTES of UTF-8 at a code point boundary.
function cutTerm(term: string): string {
  if (term.length * 3 <= MAX_TERM_BYTES) return term;
  let bytes = 0;
  for (let i = 0; i < term.length; ) {
    const cp = term.codePointAt(i) as number;
    bytes += utf8Length(cp);
    if (bytes > MAX_TERM_BYTES) return term.slice(0, i);
    i += cp > 0xffff ? 2 : 1;
  }
  return term;
}

/** A code point of a compound: source span, fold (fold.slice(fa, fb)) and class. */
interface Unit {
  start: number;
  end: number;
  fa: number;
  fb: number;
  cls: number;
}

/** Units [u0, u1) of a compound and the level of the cut before them. */
interface Leaf {
  u0: number;
  u1: number;
  cut: number;
}

/** A folded CJK code point and its source span. */
interface CJKRune {
  r: number;
  start: number;
  end: number;
}

// The Hangul composition constants of Unicode 15.0, section 3.12.
const S_BASE = 0xac00;
const L_BASE = 0x1100;
const V_BASE = 0x1161;
const T_BASE = 0x11a7;
const L_COUNT = 19;
const V_COUNT = 21;
const T_COUNT = 28;
const S_COUNT = L_COUNT * V_COUNT * T_COUNT;

function composeHangul(a: number, b: number): number {
  const l = a - L_BASE;
  const v = b - V_BASE;
  if (l >= 0 && l < L_COUNT && v >= 0 && v < V_COUNT) return S_BASE + (l * V_COUNT + v) * T_COUNT;
  const sv = a - S_BASE;
  const t = b - T_BASE;
  if (sv >= 0 && sv < S_COUNT && sv % T_COUNT === 0 && t > 0 && t < T_COUNT) return a + t;
  return -1;
}

// The segmenter mirrors the one in analyze_impl.go function by function, so
// that a change to one is easy to carry over to the other.
class Segmenter {
  readonly toks: Token[] = [];
  private pos = 0;
  private units: Unit[] = [];
  private fold = "";
  private leaves: Leaf[] = [];
  private readonly d: Decoded = { cls: 0, fold: "", size: 0 };

  constructor(private readonly text: string) {}

  run(): void {
    const text = this.text;
    const d = this.d;
    for (let i = 0; i < text.length; ) {
      decode(text, i, d);
      if (isWordClass(d.cls)) i = this.compound(i);
      else if (d.cls === CLS_CJK) i = this.cjkRun(i);
      else i += d.size;
    }
  }

  private emit(term: string, start: number, end: number, pos: number): void {
    this.toks.push({ term: cutTerm(term), start, end, pos });
  }

  // compound analyses the compound starting at i (a word character) and
  // returns where it ends.
  private compound(i: number): number {
    const text = this.text;
    const d = this.d;
    const units: Unit[] = [];
    let fold = "";
    let lastWord = 0;
    for (let j = i; j < text.length; j += d.size) {
      decode(text, j, d);
      if (isWordClass(d.cls) || isJoinClass(d.cls)) {
        if (isWordClass(d.cls)) lastWord = units.length;
        const fa = fold.length;
        fold += d.fold;
        units.push({ start: j, end: j + d.size, fa, fb: fold.length, cls: d.cls });
      } else if (d.cls === CLS_IGNORE) {
        units[units.length - 1].end = j + d.size;
      } else {
        break;
      }
    }
    // Joiners after the last word character are not part of the compound.
    units.length = lastWord + 1;
    fold = fold.slice(0, units[lastWord].fb);
    // A t between digits cuts like '.', so that an ISO 8601 timestamp
    // (2026-10-21T08:10:37Z) yields its date.
    for (let k = 1; k + 1 < units.length; k++) {
      const u = units[k];
      if (u.fb - u.fa === 1 && fold[u.fa] === "t" && units[k - 1].cls === CLS_DIGIT && units[k + 1].cls === CLS_DIGIT) {
        u.cls = CLS_JOIN2;
      }
    }
    this.units = units;
    this.fold = fold;
    this.cutLeaves();
    this.emitNode(0, this.leaves.length);
    return units[lastWord].end;
  }

  // cutLeaves cuts the units of the compound into leaves at joiner runs and
  // camelCase boundaries.
  private cutLeaves(): void {
    const u = this.units;
    const leaves: Leaf[] = [];
    let cut = 0;
    for (let k = 0; k < u.length; ) {
      let start = k;
      for (k++; k < u.length && isWordClass(u[k].cls); k++) {
        if (camelBoundary(u, k)) {
          leaves.push({ u0: start, u1: k, cut });
          start = k;
          cut = JOIN_LEVEL_CAMEL;
        }
      }
      leaves.push({ u0: start, u1: k, cut });
      cut = MAX_JOIN_LEVEL;
      for (; k < u.length && isJoinClass(u[k].cls); k++) {
        // Join classes are numbered from the most major level up.
        cut = Math.min(cut, u[k].cls - CLS_JOIN1 + 1);
      }
    }
    this.leaves = leaves;
  }

  // emitNode emits leaves [a, b): their joined form, then recursively the
  // parts between the most major cuts inside them.
  private emitNode(a: number, b: number): void {
    const first = this.units[this.leaves[a].u0];
    const last = this.units[this.leaves[b - 1].u1 - 1];
    this.emit(this.fold.slice(first.fa, last.fb), first.start, last.end, this.pos);
    if (b - a === 1) {
      this.pos++;
      return;
    }
    let major = MAX_JOIN_LEVEL;
    for (let k = a + 1; k < b; k++) major = Math.min(major, this.leaves[k].cut);
    let from = a;
    for (let k = a + 1; k < b; k++) {
      if (this.leaves[k].cut === major) {
        this.emitNode(from, k);
        from = k;
      }
    }
    this.emitNode(from, b);
  }

  // cjkRun analyses the run of CJK characters starting at i as bigrams and
  // returns where it ends.
  private cjkRun(i: number): number {
    const text = this.text;
    const d = this.d;
    const t = getTables();
    const run: CJKRune[] = [];
    let j = i;
    for (; j < text.length; j += d.size) {
      decode(text, j, d);
      const x = d.fold.codePointAt(0) as number;
      const last = run[run.length - 1];
      if (d.cls === CLS_CJK) {
        const c = last ? composeHangul(last.r, x) : -1;
        if (c >= 0) {
          last.r = c;
          last.end = j + d.size;
        } else {
          run.push({ r: x, start: j, end: j + d.size });
        }
      } else if (d.cls === CLS_VOICE) {
        const c = t.voiced.get(last.r * 2 + (x === 0x309a ? 1 : 0));
        if (c !== undefined) last.r = c;
        // A voicing mark that composes with nothing is dropped.
        last.end = j + d.size;
      } else if (d.cls === CLS_IGNORE) {
        last.end = j + d.size;
      } else {
        break;
      }
    }
    if (run.length === 1) {
      const c = run[0];
      this.emit(String.fromCodePoint(c.r), c.start, c.end, this.pos++);
      return j;
    }
    for (let k = 0; k + 1 < run.length; k++) {
      const a = run[k];
      const b = run[k + 1];
      this.emit(String.fromCodePoint(a.r, b.r), a.start, b.end, this.pos++);
    }
    return j;
  }
}

// camelBoundary reports whether a camelCase boundary falls before word unit
// k: lower|Upper, or before the last upper-case letter of a run of upper
// case and digits when two lower-case letters follow it.
function camelBoundary(u: Unit[], k: number): boolean {
  if (u[k].cls !== CLS_UPPER) return false;
  const p = u[k - 1].cls;
  if (p === CLS_LOWER) return true;
  if (p === CLS_UPPER || p === CLS_DIGIT) {
    return k + 2 < u.length && u[k + 1].cls === CLS_LOWER && u[k + 2].cls === CLS_LOWER;
  }
  return false;
}

/** analyzeTokens returns the tokens of text, ordered by start, then by end descending. */
export function analyzeTokens(text: string): Token[] {
  const s = new Segmenter(text);
  s.run();
  return s.toks;
}

/** analyze returns the terms of text, as the Go side's Analyze does. */
export function analyze(text: string): string[] {
  return analyzeTokens(text).map((t) => t.term);
}

/** @internal classifyForTest exposes the tables to the Go tests: class and fold of a code point. */
export function classifyForTest(cp: number): [number, string] {
  const d: Decoded = { cls: 0, fold: "", size: 0 };
  decode(String.fromCodePoint(cp), 0, d);
  return [d.cls, d.fold];
}
