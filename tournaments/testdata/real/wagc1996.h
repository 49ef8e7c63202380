; TC[W960521]
; CL[A]
; EV[World Amateur Go Championship 1996]
; PC[JP, Omachi]
; KM[5.5]
; TM[90]
; HA[h9]
; DT[1996-05-21,1996-05-24]
;               18th World Amateur Go Championship, Omachi (JP)
;                              May 21 - 24, 1996
;
;Pl     Name             Grade  Club   MM S SOS SDOS  1.  2.  3.  4.  5.  6.  7.  8.
  1 Liu Jun                 7d CN xxx   8 8  38  38  42+ 11+ 30+  3+  4+  2+  9+ 10+  |10425536
  2 Hirata Hironori         7d JP xxx   6 6  42  30  23+ 18- 22+ 11+  5+  1-  7+  3+  |10437537
  3 Yi Yong-man             7d KR xxx   6 6  42  28  31+  9+  7+  1- 18+  4+  8+  2-  |10449538
  4 Kan Ying                7d HK xxx   6 6  41  27  17+ 13+ 18+ 21+  1-  3- 19+  9+  |10450539
  5 Ko Thomas-Faul          7d US xxx   6 6  38  27  44+ 20+  6+  7+  2-  8- 12+ 14+  |10462540
  6 Huang Hsiang-Jen        7d TW xxx   6 6  35  25  36+ 12+  5- 19- 13+ 30+ 18+  8+  |10474541
  7 Ch`oe Myeong-seon       7d KP xxx   5 5  41  23   8+ 15+  3-  5- 11+ 22+  2- 19+  |10486542
  8 Bogdanov Viktor         6d RU 10Pt  5 5  40  23   7- 38+ 13+ 12+ 21+  5+  3-  6-  |10325139
  9 Yu Zhiqi                6d CA xxx   5 5  40  20  35+  3- 20+ 10+ 23+ 19+  1-  4-  |10498543
 10 Arnim Felix_von         5d DE HH    5 5  38  21  25+ 19- 26+  9- 20+ 17+ 22+  1-  |10237194
 11 Colmez Pierre           5d FR 75Pa  5 5  38  19  27+  1- 24+  2-  7- 40+ 21+ 18+  |10237018
 12 Hornbaek Kasper         5d DK KGK   5 5  36  19  33+  6- 17+  8- 32+ 23+  5- 22+  |10413546
 13 Heiser Laurent          6d LU Lux   5 5  35  18  39+  4-  8- 24+  6- 25+ 30+ 20+  |10249195
 14 Ng Say-Boon             6d SG xxx   5 5  32  18  32+ 25- 44+ 16+ 19- 34+ 15+  5-  |10425547
 15 Danek Vladimir          6d CZ Pra   5 5  30  16  38+  7- 43+ 22- 31+ 27+ 14- 26+  |10213016
 16 Huettler Franz          4d AT Wien  5 5  29  17  26- 42+ 28+ 14- 34- 32+ 27+ 24+  |10274869
 17 Wettach Alain           3d BE Brug  5 5  28  12   4- 45+ 12- 43+ 35+ 10- 33+ 30+  |10437548
 18 Eeden Gilles_van        5d NL Nijm  4 4  39  16  37+  2+  4- 30+  3- 21+  6- 11-  |10201598
 19 Macfadyen Matthew       6d UK Leam  4 4  38  18  43+ 10+ 21-  6+ 14+  9-  4-  7-  |10249019
 20 Chow Victor             5d ZA xxx   4 4  35  14  28+  5-  9- 37+ 10- 31+ 23+ 13-  |10449549
 21 Bisca Mihai             5d RO Bucu  4 4  34  14  41+ 24+ 19+  4-  8- 18- 11- 31+  |10301390
 22 Soldan Leszek           6d PL Olsz  4 4  34  13  46+ 26+  2- 15+ 27+  7- 10- 12-  |10449560
 23 Yatsenko Dmytro         5d UA Kyiv  4 4  33  13   2- 32+ 35+ 25+  9- 12- 20- 37+  |10286870
 24 Sanchez Cesar           4d ES Mad   4 4  32  13  29+ 21- 11- 13- 43+ 28+ 36+ 16-  |10450561
 25 Matoh Leon              5d SI NM    4 4  31  14  10- 14+ 31+ 23- 30- 13- 35+ 34+  |10398608
 26 Pedrini Enzo            3d IT Mila  4 4  31  14  16+ 22- 10- 31- 37+ 35+ 34+ 15-  |10233058
 27 Olsson Ulf              4d SE Got   4 4  29  10  11- 46+ 29+ 34+ 22- 15- 16- 33+  |10462562
 28 Mitchell Noel           2d IE Dubl  4 4  26  10  20- 41+ 16- 39- 38+ 24- 45+ 36+  |10474563
 29 Jones Kyle              5d NZ xxx   4 4  25  11  24- 36+ 27- 32- 33- 38+ 42+ 40+  |10486564
 30 Lopez-Herrero Eduardo   6d AR xxx   3 3  38  10  40+ 34+  1- 18- 25+  6- 13- 17-  |10401567
 31 Suzuki Kiichiro         5d BR xxx   3 3  33  10   3- 33+ 25- 26+ 15- 20- 40+ 21-  |10413568
 32 Siivola Matti           5d FI HGK   3 3  32  10  14- 23- 38+ 29+ 12- 16- 37- 39+  |10286782
 33 Chairasmisak Korsak     4d TH xxx   3 3  30  10  12- 31- 41+ 35- 29+ 39+ 17- 27-  |10425569
 34 Szabics Gabor           4d HU BuPe  3 3  29   9  45+ 30- 37+ 27- 16+ 14- 26- 25-  |10201873
 35 Tiong Kee-Soon          3d MY xxx   3 3  29   7   9- 44+ 23- 33+ 17- 26- 25- 43+  |10437570
 36 Rivaud Juan-Jose        3d MX xxx   3 3  28   7   6- 29- 42+ 40- 44+ 41+ 24- 28-  |10449571
 37 Poliak Miroslav         5d SK Gala  3 3  27   8  18- 40+ 34- 20- 26- 43+ 32+ 23-  |10262659
 38 Morrison Roberto        1d CH Loc   3 3  25   4  15-  8- 32- 46+ 28- 29- 44+ 42+  |10349493
 39 Smythe Neville          3d AU xxx   3 3  24   8  13- 43- 45+ 28+ 40- 33- 41+ 32-  |10450572
 40 Sannes Paal             3d NO Osl   3 3  24   6  30- 37- 46+ 36+ 39+ 11- 31- 29-  |10233047
 41 Saez Pablo              2d CL xxx   3 3  20   3  21- 28- 33- 45+ 42+ 36- 39- 46+  |10462573
 42 Djap Woei-Haw           3d ID xxx   2 2  29   3   1- 16- 36- 44+ 41- 45+ 29- 38-  |10474574
 43 Karaerkek Kerem         2d TR Ank   2 2  27   3  19- 39+ 15- 17- 24- 37- 46+ 35-  |10498576
 44 Branco Gabriel          2k PT Lis   2 2  23   1   5- 35- 14- 42- 36- 46+ 38- 45+  |10401578
 45 Torres-Miranda Rafael   2k CU xxx   1 1  22   0  34- 17- 39- 41- 46+ 42- 28- 44-  |10413579
 46 Nakada Yuzuru           2k VE xxx   0 0  22   0  22- 27- 40- 38- 45- 44- 43- 41-  |10425580