"""The refusals of the rules and the card-enrolment messages in French, English and Ukrainian.

One entry per ``code`` that a :class:`terminal.errors.GameError` or a :class:`cards.errors.CardsError` can
carry (the codes given at the raise sites and each error class's default code), plus the enrolment prompts
and results of :mod:`cards.registry`. :mod:`terminal.table.i18n` merges :data:`MESSAGES` into its ``CATALOG`` (an
entry already in the catalog wins).

A template only uses the params that EVERY raise site of its code passes (``tests/terminal/test_i18n.py``
checks it on the source), so no ``{placeholder}`` is ever left unfilled. Every refusal about a square
gives ``deed``, the square's name in the game's edition, so the texts name it. A list of names (``missing``,
``mortgaged``, ``behind``, ``ahead``, ``built``) also comes joined as one string (``missing_names``...), which
the texts use. Params that hold English words or identifiers (``what``, ``action``, ``deck``, ``card``,
``kind``, ``mode``, ``building``) are not used in the French and Ukrainian texts; where such a word matters,
the raise site also gives a ``*_code`` param naming one of the ``part_*`` entries below (``deck_code``,
``card_code``, ``building_code``, ``wanted_code``, ``lowest_code``), which :func:`terminal.table.i18n.translate`
shows in the reader's language. Amounts are plain ints.

Terms: French as printed on the French game (titre de propriété, groupe de couleur, loyer, hypothèque /
lever l'hypothèque, la Banque, maison, hôtel, enchères, échange, carte « libéré de prison »); Ukrainian as
in the Ukrainian rules text (документ на право власності, група кольорів, орендна плата, застава /
викупити заставу, Банк, будинок, готель, аукціон, банкрутство, картка «Безкоштовно звільніться з
В'язниці»).
"""
from __future__ import annotations

_JAIL_FR = "« libéré de prison »"
_JAIL_UK = "«Безкоштовно звільніться з В'язниці»"

MESSAGES: dict[str, dict[str, str]] = {
    # -- generic refusals (the error classes' default codes) -------------------------------------------------------
    "game_error": {
        "fr": "Opération refusée : rien n'a changé.",
        "en": "The operation was refused: nothing changed.",
        "uk": "Операцію відхилено: нічого не змінилося.",
    },
    "rule_violation": {
        "fr": "Les règles du jeu interdisent cette opération : rien n'a changé.",
        "en": "The rules of the game forbid this operation: nothing changed.",
        "uk": "Правила гри забороняють цю операцію: нічого не змінилося.",
    },
    "invalid_amount": {
        "fr": "Montant refusé : tapez un nombre entier supérieur à zéro.",
        "en": "Amount refused: type a whole number above zero.",
        "uk": "Суму відхилено: введіть ціле число, більше за нуль.",
    },
    "unknown_name": {
        "fr": "Nom inconnu : vérifiez le joueur, la case ou le paquet de cartes.",
        "en": "Unknown name: check the player, the square or the deck.",
        "uk": "Невідома назва: перевірте гравця, поле або колоду карток.",
    },
    "malformed_operation": {
        "fr": "Opération mal formée : elle n'a pas été enregistrée (erreur de programme ou de fichier).",
        "en": "Malformed operation: it was not recorded (a program or file error).",
        "uk": "Неправильно сформована операція: її не записано (помилка програми або файлу).",
    },
    "ledger_error": {
        "fr": "Le fichier de la partie ne peut pas être ouvert ou écrit : vérifiez-le ou restaurez une "
              "sauvegarde.",
        "en": "The game file cannot be opened or written: check it or restore a backup.",
        "uk": "Файл гри не вдається відкрити або записати: перевірте його або відновіть резервну копію.",
    },
    "cards_error": {
        "fr": "Opération sur les cartes refusée : vérifiez la carte ou le fichier et réessayez.",
        "en": "Card operation refused: check the card or the file and try again.",
        "uk": "Операцію з картками відхилено: перевірте картку або файл і спробуйте ще раз.",
    },
    "enrolment_state": {
        "fr": "Impossible à cette étape de l'enregistrement des cartes.",
        "en": "Not possible at this step of the card enrolment.",
        "uk": "Неможливо на цьому кроці реєстрації карток.",
    },
    # -- players, money and debts ----------------------------------------------------------------------------------
    "unknown_player": {
        "fr": "Il n'y a pas de joueur « {player} » dans cette partie : choisissez un joueur de la partie.",
        "en": "There is no player '{player}' in this game: choose a player of this game.",
        "uk": "У цій грі немає гравця «{player}»: виберіть гравця цієї гри.",
    },
    "player_bankrupt": {
        "fr": "{player} est en faillite et hors jeu : il ne peut plus ni payer ni recevoir d'argent.",
        "en": "{player} is bankrupt and out of the game: nothing can be paid to or by them.",
        "uk": "{player} — банкрут і вибув з гри: він більше не може ні платити, ні отримувати гроші.",
    },
    "player_in_debt": {
        "fr": "{player} doit encore {owed} : réglez d'abord cette dette en vendant des bâtiments, en hypothéquant "
              "des titres de propriété ou par un échange, ou déclarez faillite.",
        "en": "{player} still owes {owed}: settle that debt first by selling buildings, mortgaging deeds or "
              "trading, or declare bankruptcy.",
        "uk": "{player} ще винен {owed}: спершу сплатіть борг — продайте будівлі, закладіть нерухомість або "
              "укладіть обмін, або оголосіть банкрутство.",
    },
    "insufficient_cash": {
        "fr": "{player} ne peut pas payer {amount} : seulement {cash} en espèces. Vendez des bâtiments ou "
              "hypothéquez des titres de propriété d'abord.",
        "en": "{player} cannot pay {amount}: only {cash} in cash. Sell buildings or mortgage deeds first.",
        "uk": "{player} не може сплатити {amount}: готівки лише {cash}. Спершу продайте будівлі або закладіть "
              "нерухомість.",
    },
    "pay_self": {
        "fr": "Impossible de se payer soi-même ({player}) : choisissez un autre bénéficiaire.",
        "en": "{player} cannot pay themselves: choose someone else to pay.",
        "uk": "{player} не може платити собі: виберіть іншого одержувача.",
    },
    "amount_not_whole": {
        "fr": "Le montant doit être un nombre entier, pas {amount} : tapez des chiffres seulement.",
        "en": "The amount must be a whole number, not {amount}: type digits only.",
        "uk": "Сума має бути цілим числом, а не {amount}: вводьте лише цифри.",
    },
    "amount_not_positive": {
        "fr": "Le montant doit être supérieur à zéro, pas {amount} : tapez un autre montant.",
        "en": "The amount must be more than zero, not {amount}: type another amount.",
        "uk": "Сума має бути більшою за нуль, а не {amount}: введіть іншу суму.",
    },
    "amount_absurd": {
        "fr": "Le montant {amount} dépasse {max} : vérifiez les chiffres.",
        "en": "The amount {amount} is more than {max}: check the digits.",
        "uk": "Сума {amount} більша за {max}: перевірте цифри.",
    },
    "amount_unreadable": {
        "fr": "« {text} » n'est pas un montant entier : tapez des chiffres seulement.",
        "en": "'{text}' is not a whole amount: type digits only.",
        "uk": "«{text}» — не ціла сума: вводьте лише цифри.",
    },
    "bankruptcy_no_debt": {
        "fr": "{player} ne doit rien : la faillite est réservée au joueur qui ne peut pas payer une dette.",
        "en": "{player} owes nothing: bankruptcy is only for a player who cannot pay a debt.",
        "uk": "{player} нічого не винен: банкрутство — лише для гравця, який не може сплатити борг.",
    },
    "bankruptcy_can_pay": {
        "fr": "{player} doit {owed} mais peut encore réunir {raisable} en vendant des bâtiments et en "
              "hypothéquant des titres de propriété : réunissez l'argent au lieu de faire faillite.",
        "en": "{player} owes {owed} but could still raise {raisable} by selling buildings and mortgaging "
              "deeds: raise the money instead of going bankrupt.",
        "uk": "{player} винен {owed}, але ще може зібрати {raisable}, продавши будівлі та заклавши "
              "нерухомість: зберіть гроші замість банкрутства.",
    },
    "lift_now_not_received": {
        "fr": "{deed} n'est pas un titre de propriété hypothéqué reçu ici : on ne peut lever tout de suite que "
              "l'hypothèque d'un titre hypothéqué reçu dans cet échange ou cette faillite.",
        "en": "{deed} is not a mortgaged deed received here: only the mortgage of a mortgaged deed received in "
              "this trade or bankruptcy can be lifted at once.",
        "uk": "{deed} — не закладена нерухомість, отримана тут: одразу викупити заставу можна лише за "
              "закладену нерухомість, отриману в цьому обміні чи банкрутстві.",
    },
    # -- title deeds, rent and taxes -------------------------------------------------------------------------------
    "unknown_square": {
        "fr": "Il n'y a pas de case {square} : les cases sont numérotées de 0 à 39.",
        "en": "There is no square {square}: squares are numbered 0 to 39.",
        "uk": "Поля {square} немає: поля пронумеровано від 0 до 39.",
    },
    "no_such_square": {
        "fr": "Il n'y a pas de case {square} sur le plateau : les cases sont numérotées de 0 à 39.",
        "en": "There is no square {square} on the board: squares are numbered 0 to 39.",
        "uk": "На ігровому полі немає поля {square}: поля пронумеровано від 0 до 39.",
    },
    "not_a_deed": {
        "fr": "La case {square} n'est pas un titre de propriété : choisissez une rue, une gare ou une "
              "compagnie.",
        "en": "Square {square} is not a title deed: choose a street, a railroad or a utility.",
        "uk": "Поле {square} — не нерухомість з документом на право власності: виберіть ділянку, вокзал або "
              "комунальне підприємство.",
    },
    "not_owner": {
        "fr": "{player} ne possède pas {deed} : seul son propriétaire peut faire cela.",
        "en": "{player} does not hold {deed}: only its owner can do that.",
        "uk": "{deed} не належить гравцю {player}: це може зробити лише власник.",
    },
    "deed_owned": {
        "fr": "{deed} appartient déjà à {owner} : un titre de propriété ne change de main que par un échange ; "
              "seuls les titres de la Banque s'achètent ou se vendent aux enchères.",
        "en": "{deed} already belongs to {owner}: it changes hands only by a trade; only the Bank's deeds are "
              "bought or auctioned.",
        "uk": "{deed} уже належить гравцю {owner}: нерухомість переходить до іншого лише через обмін; купити чи "
              "виставити на аукціон можна лише нерухомість Банку.",
    },
    "dealt_twice": {
        "fr": "{deed} est distribué deux fois : chaque titre de propriété ne va qu'à un seul joueur.",
        "en": "{deed} is dealt twice: each deed goes to one player only.",
        "uk": "{deed} роздано двічі: кожен документ на право власності отримує лише один гравець.",
    },
    "rent_unowned": {
        "fr": "Pas de loyer sur {deed} : ce titre de propriété n'appartient à personne. Le joueur peut "
              "l'acheter, sinon il est mis aux enchères.",
        "en": "No rent on {deed}: nobody owns it. The player may buy it, or it is auctioned.",
        "uk": "Орендної плати за {deed} немає: ця нерухомість нікому не належить. Гравець може її купити, "
              "інакше її виставляють на аукціон.",
    },
    "rent_own_deed": {
        "fr": "Pas de loyer : {player} est le propriétaire de {deed}.",
        "en": "No rent: {player} owns {deed}.",
        "uk": "Орендної плати немає: {player} — власник нерухомості {deed}.",
    },
    "rent_mortgaged": {
        "fr": "Pas de loyer sur {deed} : ce titre de propriété est hypothéqué.",
        "en": "No rent on {deed}: it is mortgaged.",
        "uk": "Орендної плати за {deed} немає: цю нерухомість закладено.",
    },
    "unknown_rent_card": {
        "fr": "Carte de loyer inconnue « {card} » : choisissez la gare la plus proche ou la compagnie la "
              "plus proche.",
        "en": "Unknown rent card '{card}': choose the nearest railroad or the nearest utility.",
        "uk": "Невідома картка оренди «{card}»: виберіть найближчий вокзал або найближче комунальне "
              "підприємство.",
    },
    "rent_card_wrong_deed": {
        "fr": "Cette carte envoie le joueur à {card_code}, pas sur {deed} : choisissez le bon titre de "
              "propriété.",
        "en": "This card sends the player to {card_code}, not to {deed}: choose the right title deed.",
        "uk": "Ця картка відправляє гравця на {card_code}, а не на {deed}: виберіть правильну нерухомість.",
    },
    "rent_needs_dice": {
        "fr": "Le loyer de {deed} dépend des dés : tapez le total des dés (2 à 12).",
        "en": "The rent on {deed} depends on the dice: type the dice total (2 to 12).",
        "uk": "Орендна плата за {deed} залежить від кубиків: введіть суму кубиків (2–12).",
    },
    "rent_no_dice": {
        "fr": "Le loyer de {deed} ne dépend pas des dés : ne tapez pas de total des dés.",
        "en": "The rent on {deed} does not depend on the dice: leave the dice out.",
        "uk": "Орендна плата за {deed} не залежить від кубиків: не вводьте суму кубиків.",
    },
    "dice_out_of_range": {
        "fr": "Un total des dés va de 2 à 12, pas {dice} : tapez le bon total.",
        "en": "A dice total is 2 to 12, not {dice}: type the right total.",
        "uk": "Сума кубиків — від 2 до 12, а не {dice}: введіть правильну суму.",
    },
    "not_a_tax": {
        "fr": "{deed} n'est pas une case d'impôt : l'impôt sur le revenu est la case 4, la taxe de luxe la "
              "case 38.",
        "en": "{deed} is not a tax square: income tax is square 4, luxury tax square 38.",
        "uk": "{deed} — не податкове поле: податок на прибуток — поле 4, податок на розкіш — поле 38.",
    },
    "tax_no_choice": {
        "fr": "Pas de choix pour {deed} : seul l'impôt sur le revenu, avec la règle des 10 % activée, en offre "
              "un. Payez le montant imprimé.",
        "en": "No choice for {deed}: only the income tax, with the 10 % rule on, offers one. Pay the printed "
              "amount.",
        "uk": "Для поля {deed} вибору немає: його має лише податок на прибуток з увімкненим правилом 10 %. "
              "Сплатіть надруковану суму.",
    },
    "tax_bad_choice": {
        "fr": "Pour l'impôt sur le revenu, choisissez le forfait ou 10 % de la fortune, pas « {choice} ».",
        "en": "For the income tax, choose the flat amount or 10 % of worth, not '{choice}'.",
        "uk": "Для податку на прибуток виберіть фіксовану суму або 10 % статків, а не «{choice}».",
    },
    # -- buildings -------------------------------------------------------------------------------------------------
    "build_not_street": {
        "fr": "Impossible de construire sur {deed} : seules les rues reçoivent des maisons, pas les gares ni les "
              "compagnies.",
        "en": "Nothing can be built on {deed}: only streets take houses, not railroads or utilities.",
        "uk": "На {deed} нічого не можна будувати: будинки ставлять лише на ділянки, не на вокзали чи "
              "комунальні підприємства.",
    },
    "build_group_incomplete": {
        "fr": "Impossible de construire sur {deed} : {owner} doit posséder tout le groupe de couleur. Il manque "
              ": {missing_names} (à obtenir par un achat ou un échange).",
        "en": "Can't build on {deed}: {owner} must hold the whole colour group ({missing_names} missing). Get "
              "them first (buy or trade).",
        "uk": "Будувати на {deed} не можна: {owner} має володіти всією групою кольорів. Бракує: "
              "{missing_names} (отримайте купівлею або обміном).",
    },
    "build_group_mortgaged": {
        "fr": "Impossible de construire sur {deed} tant qu'un titre du groupe de couleur est hypothéqué "
              "({mortgaged_names}) : levez d'abord l'hypothèque.",
        "en": "Can't build on {deed} while a deed of its colour group is mortgaged ({mortgaged_names}): lift "
              "the mortgage first.",
        "uk": "Будувати на {deed} не можна, доки ділянку групи кольорів закладено ({mortgaged_names}): спершу "
              "викупіть заставу.",
    },
    "build_max": {
        "fr": "{deed} a déjà un hôtel : un seul hôtel par rue, on ne peut plus y construire.",
        "en": "{deed} already has a hotel: one hotel per street, nothing more can be built there.",
        "uk": "На {deed} вже є готель: лише один готель на ділянку, більше будувати не можна.",
    },
    "build_uneven": {
        "fr": "Impossible de construire sur {deed} : construisez de façon égale sur le groupe de couleur, "
              "d'abord sur {behind_names} ({lowest_code}).",
        "en": "Can't build on {deed}: build evenly across the colour group, first on {behind_names} "
              "({lowest_code}).",
        "uk": "Будувати на {deed} не можна: будуйте рівномірно на всій групі кольорів, спершу на "
              "{behind_names} ({lowest_code}).",
    },
    "no_houses_left": {
        "fr": "Impossible de construire sur {deed} : la Banque n'a plus de maison. Attendez que des maisons lui "
              "soient revendues.",
        "en": "Can't build on {deed}: the Bank has no house left. Wait until some are sold back.",
        "uk": "Будувати на {deed} не можна: у Банку не залишилося будинків. Зачекайте, доки їх продадуть "
              "назад.",
    },
    "no_hotels_left": {
        "fr": "Impossible de construire sur {deed} : la Banque n'a plus d'hôtel. Attendez qu'un hôtel lui soit "
              "revendu.",
        "en": "Can't build on {deed}: the Bank has no hotel left. Wait until one is sold back.",
        "uk": "Будувати на {deed} не можна: у Банку не залишилося готелів. Зачекайте, доки готель продадуть "
              "назад.",
    },
    "sell_nothing": {
        "fr": "Il n'y a aucun bâtiment à vendre sur {deed}.",
        "en": "There is no building on {deed} to sell.",
        "uk": "На {deed} немає будівель для продажу.",
    },
    "sell_uneven": {
        "fr": "Vente refusée sur {deed} : vendez de façon égale, d'abord sur {ahead_names}.",
        "en": "Sell evenly: sell from {ahead_names} first, not from {deed}.",
        "uk": "Продаж на {deed} відхилено: продавайте рівномірно, спершу продайте будівлі на: {ahead_names}.",
    },
    # -- mortgages -------------------------------------------------------------------------------------------------
    "already_mortgaged": {
        "fr": "{deed} est déjà sous hypothèque : un titre de propriété ne peut pas être hypothéqué deux fois.",
        "en": "{deed} is already mortgaged: it cannot be mortgaged twice.",
        "uk": "{deed} уже в заставі: закласти нерухомість вдруге не можна.",
    },
    "not_mortgaged": {
        "fr": "{deed} n'est pas sous hypothèque : il n'y a pas d'hypothèque à lever.",
        "en": "{deed} is not mortgaged: there is no mortgage to lift.",
        "uk": "{deed} не в заставі: викуповувати заставу не потрібно.",
    },
    "mortgage_group_built": {
        "fr": "Impossible d'hypothéquer {deed} : le groupe de couleur a des bâtiments. Vendez d'abord à la "
              "Banque les maisons et hôtels de {built_names}.",
        "en": "Can't mortgage {deed}: the colour group has buildings. Sell the houses and hotels on "
              "{built_names} to the Bank first.",
        "uk": "Закласти {deed} не можна: на групі кольорів є будівлі. Спершу продайте Банку будинки й готелі "
              "на: {built_names}.",
    },
    # -- Get Out of Jail Free cards --------------------------------------------------------------------------------
    "unknown_deck": {
        "fr": "Paquet inconnu « {deck} » : choisissez Chance ou Caisse de communauté.",
        "en": "Unknown deck '{deck}': choose Chance or Community Chest.",
        "uk": "Невідома колода «{deck}»: виберіть «Шанс» або «Громадська скарбниця».",
    },
    "jail_card_taken": {
        "fr": f"{{holder}} a déjà la carte {_JAIL_FR} du paquet {{deck_code}} : chaque paquet n'en a qu'une.",
        "en": "{holder} already holds the {deck_code} Get Out of Jail Free card: each deck has only one.",
        "uk": f"{{holder}} вже має картку {_JAIL_UK} з колоди {{deck_code}}: у кожній колоді лише одна.",
    },
    "no_jail_card": {
        "fr": f"{{player}} n'a pas cette carte {_JAIL_FR} : payez l'amende pour sortir de prison, ou retirez "
              f"la carte de l'échange.",
        "en": "{player} does not have that Get Out of Jail Free card: pay the fine to leave jail, or take the "
              "card out of the trade.",
        "uk": f"{{player}} не має цієї картки {_JAIL_UK}: сплатіть штраф, щоб вийти з В'язниці, або приберіть "
              f"картку з обміну.",
    },
    # -- trades ----------------------------------------------------------------------------------------------------
    "trade_self": {
        "fr": "{player} ne peut pas faire d'échange avec lui-même : choisissez un autre joueur.",
        "en": "{player} cannot trade with themselves: choose another player.",
        "uk": "{player} не може укласти обмін сам із собою: виберіть іншого гравця.",
    },
    "trade_empty": {
        "fr": "Cet échange est vide : ajoutez un titre de propriété, de l'argent ou une carte.",
        "en": "This trade exchanges nothing: add a title deed, cash or a card.",
        "uk": "Цей обмін порожній: додайте нерухомість, гроші або картку.",
    },
    "trade_duplicate": {
        "fr": "Cet échange nomme deux fois le même titre de propriété : ne le mettez qu'une fois.",
        "en": "This trade names a title deed twice: list it once.",
        "uk": "У цьому обміні одну нерухомість названо двічі: вкажіть її один раз.",
    },
    "trade_negative": {
        "fr": f"Un échange ne peut pas donner un nombre négatif de cartes {_JAIL_FR} : indiquez 0 ou plus.",
        "en": "A trade cannot give a negative number of Get Out of Jail Free cards: give 0 or more.",
        "uk": f"Обмін не може передати від'ємну кількість карток {_JAIL_UK}: вкажіть 0 або більше.",
    },
    "trade_group_built": {
        "fr": "Impossible d'échanger {deed} : son groupe de couleur a des bâtiments ({built_names}). "
              "Vendez-les d'abord à la Banque.",
        "en": "Can't trade {deed}: its colour group has buildings ({built_names}); sell them to the Bank first.",
        "uk": "Обміняти {deed} не можна: на групі кольорів є будівлі ({built_names}). Спершу продайте їх "
              "Банку.",
    },
    # -- auctions --------------------------------------------------------------------------------------------------
    "auction_closed": {
        "fr": "Ces enchères sont closes : ouvrez de nouvelles enchères si besoin.",
        "en": "This auction is closed: open a new one if needed.",
        "uk": "Цей аукціон завершено: за потреби розпочніть новий.",
    },
    "bid_too_low": {
        "fr": "L'offre de {amount} doit dépasser la meilleure offre, {best} de {leader} : proposez davantage.",
        "en": "A bid of {amount} must be above the best bid, {best} by {leader}: bid more.",
        "uk": "Ставка {amount} має бути вищою за найкращу — {best} від {leader}: запропонуйте більше.",
    },
    "auction_bad_building": {
        "fr": "Seule une maison ou un hôtel peut être mis aux enchères.",
        "en": "Only a house or a hotel can be auctioned.",
        "uk": "На аукціон можна виставити лише будинок або готель.",
    },
    "auction_wrong_building": {
        "fr": "Ces enchères sont pour {building_code}, mais {deed} doit d'abord recevoir {wanted_code} : "
              "enchérissez pour une autre rue.",
        "en": "This auction is for {building_code}; {deed} needs {wanted_code} next: bid for another street.",
        "uk": "Цей аукціон — на {building_code}, а на {deed} наступним має стати {wanted_code}: робіть ставку "
              "для іншої ділянки.",
    },
    "auction_below_house_price": {
        "fr": "Les enchères pour construire sur {deed} commencent au prix d'une maison imprimé sur le titre, "
              "{house_cost} : {price} ne suffit pas.",
        "en": "Bids to build on {deed} start at the printed house price, {house_cost}: {price} is below it.",
        "uk": "Ставки за будівництво на {deed} починаються з ціни будинку з документа на право власності — "
              "{house_cost}: {price} замало.",
    },
    # -- words put into other texts through ``*_code`` params (terminal.table.i18n.translate); no params ---------------
    "part_deck_chance": {"fr": "Chance", "en": "Chance", "uk": "«Шанс»"},
    "part_deck_community_chest": {"fr": "Caisse de communauté", "en": "Community Chest",
                                  "uk": "«Громадська скарбниця»"},
    "part_house": {"fr": "une maison", "en": "a house", "uk": "будинок"},
    "part_hotel": {"fr": "un hôtel", "en": "a hotel", "uk": "готель"},
    "part_nearest_railroad": {"fr": "la gare la plus proche", "en": "the nearest railroad",
                              "uk": "найближчий вокзал"},
    "part_nearest_utility": {"fr": "la compagnie la plus proche", "en": "the nearest utility",
                             "uk": "найближче комунальне підприємство"},
    "part_level_0": {"fr": "aucune maison", "en": "no house", "uk": "жодного будинку"},
    "part_level_1": {"fr": "1 maison", "en": "1 house", "uk": "1 будинок"},
    "part_level_2": {"fr": "2 maisons", "en": "2 houses", "uk": "2 будинки"},
    "part_level_3": {"fr": "3 maisons", "en": "3 houses", "uk": "3 будинки"},
    "part_level_4": {"fr": "4 maisons", "en": "4 houses", "uk": "4 будинки"},
    "part_level_5": {"fr": "un hôtel", "en": "a hotel", "uk": "готель"},
    # -- the game: setup, end, undo --------------------------------------------------------------------------------
    "game_over": {
        "fr": "La partie est terminée : seule l'annulation de la dernière opération est encore possible.",
        "en": "The game is over: only undo is possible now.",
        "uk": "Гру завершено: тепер можна лише скасувати останню дію.",
    },
    "nothing_to_undo": {
        "fr": "Il n'y a rien à annuler.",
        "en": "There is nothing to undo.",
        "uk": "Нічого скасовувати.",
    },
    "end_game_not_time_limit": {
        "fr": "Seule une partie à durée limitée se termine sur demande : celle-ci continue jusqu'aux "
              "faillites.",
        "en": "Only a time-limited game ends on request; this one ({mode}) goes on until the bankruptcies.",
        "uk": "На вимогу завершується лише гра з обмеженим часом: ця гра триває до банкрутств.",
    },
    "end_time_not_time_limit": {
        "fr": "Seule une partie à durée limitée a une heure de fin : choisissez ce mode ou retirez l'heure "
              "de fin.",
        "en": "Only a time-limited game has an end time: choose that mode or leave the end time out.",
        "uk": "Час завершення має лише гра з обмеженим часом: виберіть цей режим або не вказуйте час.",
    },
    # -- play time of a time-limited game (docs/table-log.md, Time limit) -------------------------------------------
    "time_up": {
        "fr": "Le temps convenu est écoulé : la partie se termine. Annulez sa fin pour continuer.",
        "en": "The agreed time is up: the game ends now; undo its end to play on.",
        "uk": "Узгоджений час вичерпано: гра завершується. Скасуйте завершення, щоб грати далі.",
    },
    "time_not_up": {
        "fr": "Le temps convenu n'est pas écoulé : le banquier termine la partie à la main (Terminer la partie).",
        "en": "The agreed time is not up yet: the banker ends the game by hand (End the game).",
        "uk": "Узгоджений час ще не вичерпано: банкір завершує гру вручну («Завершити гру»).",
    },
    "play_time_not_time_limit": {
        "fr": "Seule une partie à durée limitée compte le temps de jeu.",
        "en": "Only a time-limited game counts play time; this one is {mode}.",
        "uk": "Час гри рахує лише гра з обмеженим часом.",
    },
    "bad_play_time": {
        "fr": "Le temps de jeu se compte en secondes entières positives, pas {seconds}.",
        "en": "Play time goes by in whole seconds, at least 1 (the time left at least 0), not {seconds}.",
        "uk": "Час гри рахується цілими додатними секундами, а не {seconds}.",
    },
    "time_limit_set": {
        "fr": "Cette partie a déjà sa durée : elle se fixe une seule fois.",
        "en": "This game already has its time limit; it is set once.",
        "uk": "Ця гра вже має свою тривалість: її задають один раз.",
    },
    "length_and_end_time": {
        "fr": "Donnez à une partie à durée limitée sa durée ou son heure de fin, pas les deux.",
        "en": "Give a time-limited game its length or its end time, not both.",
        "uk": "Задайте грі з обмеженим часом тривалість або час завершення, а не обидва.",
    },
    "bad_length": {
        "fr": "Une partie à durée limitée dure de 1 à {max} minutes de jeu.",
        "en": "A time-limited game lasts 1 to {max} minutes of play.",
        "uk": "Гра з обмеженим часом триває від 1 до {max} хвилин гри.",
    },
    "bad_end_time": {
        "fr": "L'heure de fin n'est pas une date et une heure ISO 8601 : écrivez-la comme 2024-12-24T18:00.",
        "en": "The end time is not an ISO 8601 date and time: write it like 2024-12-24T18:00.",
        "uk": "Час завершення — не дата й час у форматі ISO 8601: запишіть його як 2024-12-24T18:00.",
    },
    "unknown_mode": {
        "fr": "Mode de partie inconnu « {mode} » : choisissez classique, sans frontières, rapide ou à durée "
              "limitée.",
        "en": "Unknown game mode '{mode}': choose classic, sans frontières, quick or time-limited.",
        "uk": "Невідомий режим гри «{mode}»: виберіть класичний, без кордонів, швидкий або з обмеженим "
              "часом.",
    },
    "unknown_rule_flag": {
        "fr": "Règle inconnue « {flag} » : vérifiez son nom.",
        "en": "Unknown rule flag '{flag}': check its name.",
        "uk": "Невідоме правило «{flag}»: перевірте його назву.",
    },
    "bad_rule_flag": {
        "fr": "Valeur refusée pour la règle « {flag} » : choisissez l'une de ses valeurs permises.",
        "en": "Rule flag '{flag}' does not take this value: choose one of its allowed values.",
        "uk": "Неприпустиме значення правила «{flag}»: виберіть одне з дозволених значень.",
    },
    "deal_not_allowed": {
        "fr": "Seules les parties rapides et à durée limitée distribuent des titres de propriété au départ : "
              "retirez la distribution ou changez de mode.",
        "en": "Only the quick and time-limited games deal deeds at setup: leave the deal out or change the "
              "mode.",
        "uk": "Лише швидка гра та гра з обмеженим часом роздають нерухомість на початку: приберіть роздачу "
              "або змініть режим.",
    },
    "player_count": {
        "fr": "Une partie se joue de 2 à 8 joueurs, pas {count} : ajoutez ou retirez des joueurs.",
        "en": "A game has 2 to 8 players, not {count}: add or remove players.",
        "uk": "У грі від 2 до 8 гравців, а не {count}: додайте або приберіть гравців.",
    },
    "player_name": {
        "fr": "Nom de joueur refusé : « {name} ». Un nom fait de 1 à 20 caractères, sans espace au début ni "
              "à la fin.",
        "en": "Player name refused: '{name}'. A name is 1 to 20 characters, without leading or trailing "
              "spaces.",
        "uk": "Ім'я гравця відхилено: «{name}». Ім'я має від 1 до 20 символів, без пробілів на початку й "
              "у кінці.",
    },
    "player_name_reserved": {
        "fr": "« {name} » est réservé à la Banque : choisissez un autre nom.",
        "en": "'{name}' is reserved for the Bank: choose another name.",
        "uk": "«{name}» зарезервовано для Банку: виберіть інше ім'я.",
    },
    "player_duplicate": {
        "fr": "Deux joueurs ont le même nom : donnez-leur des noms différents.",
        "en": "Two players have the same name: give them different names.",
        "uk": "Двоє гравців мають однакове ім'я: дайте їм різні імена.",
    },
    "player_cards_mismatch": {
        "fr": "Chaque joueur a besoin d'une carte bancaire, et seuls les joueurs en ont une : vérifiez les "
              "cartes de la partie.",
        "en": "Every player needs a bank card, and only players have one: check the game's cards.",
        "uk": "Кожному гравцеві потрібна банківська картка, і лише гравці її мають: перевірте картки гри.",
    },
    "player_cards_shared": {
        "fr": "Deux joueurs ne peuvent pas partager une carte bancaire : donnez une carte à chacun.",
        "en": "Two players cannot share one bank card: give each their own card.",
        "uk": "Двоє гравців не можуть мати одну банківську картку: дайте кожному власну.",
    },
    "unknown_edition": {
        "fr": "Édition inconnue « {edition} » : choisissez l'une des éditions fournies avec Banquier.",
        "en": "Unknown edition '{edition}': choose one of the editions shipped with Banquier.",
        "uk": "Невідоме видання «{edition}»: виберіть одне з видань, що постачаються з Banquier.",
    },
    # -- operations as data (a program or file error) --------------------------------------------------------------
    "not_an_operation": {
        "fr": "Ce n'est pas une opération : rien n'a été enregistré.",
        "en": "This is not an operation: nothing was recorded.",
        "uk": "Це не операція: нічого не записано.",
    },
    "unknown_operation": {
        "fr": "Opération inconnue « {op} » : rien n'a été enregistré.",
        "en": "Unknown operation '{op}': nothing was recorded.",
        "uk": "Невідома операція «{op}»: нічого не записано.",
    },
    "unknown_field": {
        "fr": "{op} : champ inconnu « {field} ». Retirez-le.",
        "en": "{op}: unknown field '{field}'. Leave it out.",
        "uk": "{op}: невідоме поле «{field}». Приберіть його.",
    },
    "missing_field": {
        "fr": "{op} : il manque le champ « {field} ». Ajoutez-le.",
        "en": "{op}: missing field '{field}'. Add it.",
        "uk": "{op}: бракує поля «{field}». Додайте його.",
    },
    "wrong_type": {
        "fr": "Opération mal formée : un champ n'a pas le bon type. Rien n'a été enregistré.",
        "en": "Malformed operation: a field has the wrong type. Nothing was recorded.",
        "uk": "Неправильно сформована операція: поле має неправильний тип. Нічого не записано.",
    },
    "undo_not_here": {
        "fr": "L'annulation passe par le journal de la partie, pas par le moteur des règles.",
        "en": "Undo is handled by the game's journal, not by the rules engine.",
        "uk": "Скасування виконує журнал гри, а не рушій правил.",
    },
    # -- game files, keys, backups ---------------------------------------------------------------------------------
    "ledger_missing": {
        "fr": "Le fichier de partie {path} n'existe pas : vérifiez le nom ou commencez une nouvelle partie.",
        "en": "There is no game file {path}: check the name or start a new game.",
        "uk": "Файлу гри {path} немає: перевірте назву або почніть нову гру.",
    },
    "ledger_exists": {
        "fr": "{path} existe déjà : un fichier de partie n'est jamais écrasé. Choisissez un autre nom.",
        "en": "{path} already exists: a game file is never overwritten. Choose another name.",
        "uk": "{path} уже існує: файл гри ніколи не перезаписується. Виберіть іншу назву.",
    },
    "ledger_unwritable": {
        "fr": "Impossible d'écrire le fichier de partie {path} : vérifiez que le dossier de données existe et "
              "est accessible en écriture.",
        "en": "Cannot write the game file {path}: check that the data folder exists and is writable.",
        "uk": "Не вдається записати файл гри {path}: перевірте, що тека даних існує й доступна для запису.",
    },
    "ledger_unreadable": {
        "fr": "{path} n'est pas un fichier de partie lisible ({reason}). Il n'a pas été modifié : restaurez une "
              "sauvegarde ou commencez une nouvelle partie.",
        "en": "{path} is not a readable game file ({reason}). It was left untouched: restore a backup or start "
              "a new game.",
        "uk": "{path} — не придатний для читання файл гри ({reason}). Його не змінено: відновіть резервну "
              "копію або почніть нову гру.",
    },
    "ledger_no_wal": {
        "fr": "{path} : SQLite n'a pas pu passer en mode WAL. Le dossier de données est peut-être en lecture "
              "seule ou sur un système de fichiers sans mémoire partagée.",
        "en": "{path}: SQLite could not switch to WAL mode. The data folder may be read-only or on a file "
              "system without shared memory.",
        "uk": "{path}: SQLite не вдалося перейти в режим WAL. Можливо, тека даних лише для читання або на "
              "файловій системі без спільної пам'яті.",
    },
    "ledger_not_a_game": {
        "fr": "{path} n'est pas un fichier de partie Banquier. Il n'a pas été modifié : choisissez le bon "
              "fichier.",
        "en": "{path} is not a Banquier game file. It was left untouched: choose the right file.",
        "uk": "{path} — не файл гри Banquier. Його не змінено: виберіть правильний файл.",
    },
    "ledger_schema": {
        "fr": "{path} a été écrit par une autre version de Banquier (schéma {version}) : ouvrez-le avec cette "
              "version ou mettez Banquier à jour.",
        "en": "{path} was written by another version of Banquier (schema {version}): open it with that "
              "version or update Banquier.",
        "uk": "{path} записано іншою версією Banquier (схема {version}): відкрийте його тією версією або "
              "оновіть Banquier.",
    },
    "ledger_damaged": {
        "fr": "{path} est endommagé ({reason}). Il n'a pas été modifié : restaurez une sauvegarde.",
        "en": "{path} is damaged ({reason}). It was left untouched: restore a backup.",
        "uk": "{path} пошкоджено ({reason}). Його не змінено: відновіть резервну копію.",
    },
    "ledger_write_failed": {
        "fr": "L'opération n'a pas pu être écrite dans {path} ({reason}) : rien n'a été enregistré. "
              "Vérifiez la place libre et réessayez.",
        "en": "The operation could not be written to {path} ({reason}): nothing was recorded. Check the free "
              "space and try again.",
        "uk": "Операцію не вдалося записати в {path} ({reason}): нічого не записано. Перевірте вільне місце "
              "й спробуйте ще раз.",
    },
    "ledger_unknown_edition": {
        "fr": "Cette partie utilise une édition que ce Banquier ne connaît pas : installez cette édition ou "
              "mettez Banquier à jour.",
        "en": "This game uses an edition this Banquier does not have: install that edition or update Banquier.",
        "uk": "Ця гра використовує видання, якого цей Banquier не має: встановіть це видання або оновіть "
              "Banquier.",
    },
    "audit_failed": {
        "fr": "Le journal de la partie ne correspond plus à son état : il a peut-être été modifié en dehors "
              "de Banquier. Restaurez une sauvegarde.",
        "en": "The game's journal does not match its state: it may have been edited outside Banquier. Restore "
              "a backup.",
        "uk": "Журнал гри не відповідає її стану: можливо, його змінено поза Banquier. Відновіть резервну "
              "копію.",
    },
    "audit_foreign_key": {
        "fr": "{path} a été signé par la clé d'un autre appareil : ouvrez-le sur l'appareil qui l'a créé, ou "
              "avec la clé de cet appareil.",
        "en": "{path} was signed by another device's key: open it on the device that created it, or with that "
              "device's key.",
        "uk": "{path} підписано ключем іншого пристрою: відкрийте його на пристрої, що його створив, або з "
              "ключем того пристрою.",
    },
    "key_unavailable": {
        "fr": "Impossible de lire ou de créer la clé de l'appareil {path} : vérifiez le dossier et ses droits "
              "d'accès.",
        "en": "Cannot read or create the device key {path}: check the folder and its permissions.",
        "uk": "Не вдається прочитати або створити ключ пристрою {path}: перевірте теку та права доступу.",
    },
    "key_damaged": {
        "fr": "La clé de l'appareil {path} est endommagée : restaurez-la depuis une sauvegarde, sans elle les "
              "parties signées ne peuvent pas être vérifiées.",
        "en": "The device key {path} is damaged: restore it from a backup; without it the games it signed "
              "cannot be verified.",
        "uk": "Ключ пристрою {path} пошкоджено: відновіть його з резервної копії, без нього підписані ігри "
              "не перевірити.",
    },
    "backup_failed": {
        "fr": "Impossible de sauvegarder {path} : la partie et les anciennes sauvegardes sont intactes. "
              "Vérifiez le fichier, le dossier des sauvegardes et la place libre.",
        "en": "Cannot back up {path}: the game and the older backups were left as they were. Check the file, "
              "the backup folder and the free space.",
        "uk": "Не вдалося створити резервну копію {path}: гру та старі копії не змінено. Перевірте файл, "
              "теку резервних копій і вільне місце.",
    },
    "backup_damaged": {
        "fr": "{path} est endommagé : aucune sauvegarde n'a été faite et les anciennes sont conservées. "
              "Restaurez l'une d'elles.",
        "en": "{path} is damaged: no backup was made and the older backups were kept. Restore one of them.",
        "uk": "{path} пошкоджено: резервну копію не створено, старі копії збережено. Відновіть одну з них.",
    },
    "backup_not_a_game": {
        "fr": "{path} n'est pas une partie Banquier (aucune opération dans son journal) : rien à sauvegarder.",
        "en": "{path} is not a Banquier game (no journal entries): nothing to back up.",
        "uk": "{path} — не гра Banquier (у журналі немає записів): нічого зберігати.",
    },
    # -- configuration, editions, table logs -----------------------------------------------------------------------
    "config_missing": {
        "fr": "Le fichier de configuration {file} n'existe pas : créez-le (copiez deploy/config.example.toml) "
              "ou corrigez le chemin.",
        "en": "The configuration file {file} does not exist: create it (copy deploy/config.example.toml) or "
              "fix the path.",
        "uk": "Файлу налаштувань {file} немає: створіть його (скопіюйте deploy/config.example.toml) або "
              "виправте шлях.",
    },
    "config_unreadable": {
        "fr": "Impossible de lire la configuration {file} : vérifiez ses droits d'accès.",
        "en": "Cannot read the configuration {file}: check its permissions.",
        "uk": "Не вдається прочитати налаштування {file}: перевірте права доступу.",
    },
    "config_invalid": {
        "fr": "Configuration refusée ({file}) — {key} : {reason}. Corrigez le fichier d'après "
              "deploy/config.example.toml.",
        "en": "Configuration refused ({file}) — {key}: {reason}. Fix the file after deploy/config.example.toml.",
        "uk": "Налаштування відхилено ({file}) — {key}: {reason}. Виправте файл за зразком "
              "deploy/config.example.toml.",
    },
    "edition_unreadable": {
        "fr": "Impossible de lire le fichier d'édition {file} : vérifiez qu'il existe et ses droits d'accès.",
        "en": "Cannot read the edition file {file}: check that it exists and its permissions.",
        "uk": "Не вдається прочитати файл видання {file}: перевірте, що він існує, і права доступу.",
    },
    "edition_malformed": {
        "fr": "{file} n'est pas un fichier TOML valide : corrigez-le ou repartez d'une édition fournie.",
        "en": "{file} is not a valid TOML file: fix it or start again from a shipped edition.",
        "uk": "{file} — не коректний файл TOML: виправте його або візьміть за основу видання з комплекту.",
    },
    "edition_invalid": {
        "fr": "Fichier d'édition refusé ({file}) — {entry} : {reason}. Corrigez cette entrée.",
        "en": "Edition file refused ({file}) — {entry}: {reason}. Fix this entry.",
        "uk": "Файл видання відхилено ({file}) — {entry}: {reason}. Виправте цей запис.",
    },
    "table_log_malformed": {
        "fr": "Journal de table {path} refusé : fichier illisible, vide ou ligne mal formée. Corrigez-le.",
        "en": "Table log {path} refused: unreadable, empty or with a malformed line. Fix it.",
        "uk": "Журнал столу {path} відхилено: файл не читається, порожній або має неправильний рядок. "
              "Виправте його.",
    },
    "replay_mismatch": {
        "fr": "Ligne {line} : « {field} » attendu {expected}, obtenu {actual}. Vérifiez le journal de table.",
        "en": "Line {line}: '{field}' expected {expected}, got {actual}. Check the table log.",
        "uk": "Рядок {line}: «{field}» очікувалося {expected}, отримано {actual}. Перевірте журнал столу.",
    },
    # -- the card set (cards/registry.py) --------------------------------------------------------------------------
    "invalid_uid": {
        "fr": "« {uid} » n'est pas un identifiant de carte (UID) : il faut 4, 5, 7 ou 10 octets en chiffres "
              "hexadécimaux, comme 04A1B2C3.",
        "en": "'{uid}' is not a card UID: use 4, 5, 7 or 10 bytes of hex digits, such as 04A1B2C3.",
        "uk": "«{uid}» — не ідентифікатор картки (UID): потрібно 4, 5, 7 або 10 байтів шістнадцяткових "
              "цифр, як-от 04A1B2C3.",
    },
    "invalid_role": {
        "fr": "« {label} » n'est pas un rôle : écrivez banker, player N (1 à 8) ou deed N (la case du titre de "
              "propriété, 1 à 39).",
        "en": "'{label}' is not a role: write banker, player N (1 to 8) or deed N (the title deed's square, 1 "
              "to 39).",
        "uk": "«{label}» — не роль: напишіть banker, player N (1–8) або deed N (поле нерухомості, 1–39).",
    },
    "invalid_player_number": {
        "fr": "Il n'y a pas de joueur {number} : les joueurs sont numérotés de 1 à 8.",
        "en": "There is no player {number}: players are numbered 1 to 8.",
        "uk": "Гравця {number} немає: гравців пронумеровано від 1 до 8.",
    },
    "invalid_player_count": {
        "fr": "Un enregistrement de cartes couvre de 0 à 8 joueurs, pas {players}.",
        "en": "An enrolment covers 0 to 8 players, not {players}.",
        "uk": "Реєстрація карток охоплює від 0 до 8 гравців, а не {players}.",
    },
    "card_already_enrolled": {
        "fr": "Cette carte a déjà un autre rôle : utilisez une autre carte, ou retirez d'abord celle-ci pour "
              "lui en donner un nouveau.",
        "en": "This card already has a role ({role}): use another card, or forget this one first to give it "
              "another role.",
        "uk": "Ця картка вже має іншу роль: використайте іншу картку або спершу вилучіть цю, щоб дати їй "
              "нову роль.",
    },
    "role_has_card": {
        "fr": "Ce rôle a déjà une carte ({current_uid}) : passez cette étape, ou réenregistrez-le comme carte "
              "perdue pour la remplacer (l'ancienne carte cessera alors de fonctionner).",
        "en": "This role already has a card ({current_uid}): skip this step, or re-enrol it as a lost card to "
              "replace it (the old card then stops working).",
        "uk": "Ця роль уже має картку ({current_uid}): пропустіть крок або перереєструйте її як втрачену, "
              "щоб замінити (стара картка тоді перестане працювати).",
    },
    "card_not_enrolled": {
        "fr": "La carte {uid} n'est pas enregistrée : il n'y a rien à retirer.",
        "en": "Card {uid} is not enrolled, so there is nothing to forget.",
        "uk": "Картку {uid} не зареєстровано: нічого вилучати.",
    },
    "card_set_malformed": {
        "fr": "Fichier de cartes refusé ({file}, ligne {line}) : {reason}. Corrigez-le ou restaurez une "
              "sauvegarde.",
        "en": "Card set refused ({file}, line {line}): {reason}. Fix it or restore a backup.",
        "uk": "Файл карток відхилено ({file}, рядок {line}): {reason}. Виправте його або відновіть резервну "
              "копію.",
    },
    "card_set_unreadable": {
        "fr": "Impossible de lire le fichier de cartes {file} : vérifiez ses droits d'accès.",
        "en": "Cannot read the card set {file}: check its permissions.",
        "uk": "Не вдається прочитати файл карток {file}: перевірте права доступу.",
    },
    "card_set_unwritable": {
        "fr": "Impossible d'enregistrer le fichier de cartes {file} ; l'ancien fichier est conservé. Vérifiez "
              "que le dossier existe, est accessible en écriture et n'est pas en lecture seule.",
        "en": "Cannot save the card set {file}; the previous file is kept. Check that the folder exists, is "
              "writable and is not on a read-only file system.",
        "uk": "Не вдається зберегти файл карток {file}; попередній файл збережено. Перевірте, що тека існує, "
              "доступна для запису й не лише для читання.",
    },
    "enrol_step_twice": {
        "fr": "Un même rôle figure deux fois dans les étapes d'enregistrement : ne le mettez qu'une fois.",
        "en": "{role} is listed twice in the enrolment steps: list it once.",
        "uk": "Одна роль указана двічі в кроках реєстрації: залиште її один раз.",
    },
    "enrol_at_first_step": {
        "fr": "Impossible de revenir en arrière : c'est la première étape de l'enregistrement.",
        "en": "Can't go back: this is the first enrolment step.",
        "uk": "Назад не можна: це перший крок реєстрації.",
    },
    "enrol_finished": {
        "fr": "L'enregistrement des cartes est terminé : commencez-en un nouveau pour enregistrer d'autres "
              "cartes.",
        "en": "Can't {action}: the enrolment is finished. Start a new one to enrol more cards.",
        "uk": "Реєстрацію карток завершено: почніть нову, щоб зареєструвати інші картки.",
    },
    # -- the guided enrolment's prompts and results (cards.registry.Enrolment) -------------------------------------
    "enrol_tap_banker": {
        "fr": "Touchez la carte du banquier",
        "en": "Tap the banker card",
        "uk": "Прикладіть картку банкіра",
    },
    "enrol_tap_player": {
        "fr": "Touchez la carte du joueur {number}",
        "en": "Tap the card for player {number}",
        "uk": "Прикладіть картку гравця {number}",
    },
    "enrol_tap_deed": {
        "fr": "Touchez l'autocollant de {name}",
        "en": "Tap the sticker on {name}",
        "uk": "Прикладіть наліпку на {name}",
    },
    "enrol_tap_property": {
        "fr": "Touchez l'autocollant de {name}",
        "en": "Tap the sticker on {name}",
        "uk": "Прикладіть наліпку на {name}",
    },
    "enrol_tap_event": {
        "fr": "Touchez la carte Événement {number}",
        "en": "Tap Event card {number}",
        "uk": "Прикладіть картку події {number}",
    },
    "invalid_property_number": {
        "fr": "Il n'y a pas de propriété {number} : les propriétés du plateau Ultime vont de 1 à 22.",
        "en": "There is no property {number}: the Ultimate Banking board's properties are numbered 1 to 22.",
        "uk": "Немає власності {number}: власності поля «Ультимативний банкінг» мають номери від 1 до 22.",
    },
    "invalid_event_number": {
        "fr": "Il n'y a pas de carte Événement {number} : elles vont de 1 à 23.",
        "en": "There is no Event card {number}: Event cards are numbered 1 to 23.",
        "uk": "Немає картки події {number}: картки подій мають номери від 1 до 23.",
    },
    "enrol_enrolled": {
        "fr": "Carte enregistrée : la carte {uid} est maintenant celle de cette étape.",
        "en": "Enrolled: card {uid} is now this step's card.",
        "uk": "Картку зареєстровано: картка {uid} тепер належить цьому кроку.",
    },
    "enrol_replaced": {
        "fr": "Carte enregistrée : la carte {uid} remplace l'ancienne carte {previous_uid}, qui ne fonctionne "
              "plus.",
        "en": "Enrolled: card {uid} replaces the old card {previous_uid}, which no longer works.",
        "uk": "Картку зареєстровано: картка {uid} замінює стару картку {previous_uid}, яка більше не працює.",
    },
    "enrol_unchanged": {
        "fr": "Cette carte était déjà celle de cette étape : rien n'a changé.",
        "en": "This card already was this step's card: nothing changed.",
        "uk": "Ця картка вже належала цьому кроку: нічого не змінилося.",
    },
    "enrol_summary": {
        "fr": "{enrolled} enregistrée(s), {replaced} remplacée(s), {unchanged} inchangée(s), {skipped} "
              "passée(s), {pending} restante(s)",
        "en": "{enrolled} enrolled, {replaced} replaced, {unchanged} unchanged, {skipped} skipped, {pending} left",
        "uk": "зареєстровано: {enrolled}, замінено: {replaced}, без змін: {unchanged}, пропущено: {skipped}, "
              "залишилося: {pending}",
    },
    "audit_edited_entry": {
        "fr": "L'opération n° {seq} a été modifiée en dehors du terminal : elle ne peut pas être annulée. "
              "Lancez banquier audit sur la partie.",
        "en": "Entry #{seq} was edited outside the terminal: it cannot be undone. Run banquier audit on the game.",
        "uk": "Запис № {seq} змінено поза терміналом: його не можна скасувати. Запустіть banquier audit для гри.",
    },
    "audit_state_damaged": {
        "fr": "L'état enregistré de la partie est endommagé ou a été modifié. Le fichier n'a pas été touché ; "
              "banquier audit en dit plus.",
        "en": "The game's stored state is damaged or was edited. The file was left untouched; banquier audit "
              "tells more.",
        "uk": "Збережений стан гри пошкоджено або змінено. Файл не чіпали; banquier audit покаже більше.",
    },
    "key_missing": {
        "fr": "Il n'y a pas de clé d'appareil {path} : les parties ont été signées avec une autre clé. Indiquez-la "
              "avec BANQUIER_KEY_FILE (ou storage.key_file).",
        "en": "There is no device key at {path}: the games were signed with another key file. Set "
              "BANQUIER_KEY_FILE (or storage.key_file) to it.",
        "uk": "Ключа пристрою {path} немає: ігри підписано іншим ключем. Вкажіть його в BANQUIER_KEY_FILE "
              "(або storage.key_file).",
    },
    "deal_count": {
        "fr": "La donne attribue {count} titres de propriété à chaque joueur ; ce n'est pas le cas pour {players}.",
        "en": "The deal gives each player {count} title deeds; not so for {players}.",
        "uk": "Роздача дає кожному гравцю {count} картки власності; не так для: {players}.",
    },
    # -- storage (issue 11) --
    "ledger_in_use": {
        "fr": "{path} est ouverte dans un autre Banquier (le terminal ou un simulateur) : fermez-le d'abord. Le "
              "fichier n'a pas été modifié.",
        "en": "{path} is open in another Banquier (the terminal or a simulator): close that one first. The file was "
              "left untouched.",
        "uk": "{path} відкрито в іншому Banquier (терміналі чи симуляторі): спершу закрийте його. Файл не "
              "змінено.",
    },
    "ledger_busy": {
        "fr": "{path} a changé pendant sa vérification : un autre Banquier l'utilise-t-il ? Arrêtez-le, puis "
              "reprenez la partie.",
        "en": "{path} changed while it was being checked: is another Banquier using it? Stop it, then resume "
              "the game.",
        "uk": "{path} змінився під час перевірки: чи не використовує його інший Banquier? Зупиніть його, потім "
              "продовжте гру.",
    },
    # -- the Ultimate Banking board (terminal/bank/ultimate.py) ---------------------------------------------------
    "not_on_this_board": {
        "fr": "Le plateau Ultime n'a ni maisons, ni hypothèques, ni échanges, ni taxes, ni cartes "
              f"{_JAIL_FR}, ni limite de temps : opération refusée.",
        "en": "The Ultimate Banking board has no houses, mortgages, trades, taxes, Get Out of Jail Free cards "
              "or time limit: operation refused.",
        "uk": "На полі «Ультимативний банкінг» немає будинків, застав, обмінів, податків, карток "
              f"{_JAIL_UK} і ліміту часу: операцію відхилено.",
    },
    "ultimate_only": {
        "fr": "Cette opération appartient au plateau Ultime ; cette partie se joue sur le plateau classique.",
        "en": "This operation belongs to the Ultimate Banking board; this game is played on the classic board.",
        "uk": "Ця операція належить полю «Ультимативний банкінг»; ця гра йде на класичному полі.",
    },
    "level_at_max": {
        "fr": "{deed} est déjà au niveau de loyer 5, le plus haut.",
        "en": "{deed} is at rent level 5 already, the highest.",
        "uk": "{deed} вже на рівні оренди 5, найвищому.",
    },
    "level_at_min": {
        "fr": "{deed} est déjà au niveau de loyer 1, le plus bas.",
        "en": "{deed} is at rent level 1 already, the lowest.",
        "uk": "{deed} вже на рівні оренди 1, найнижчому.",
    },
    "level_unowned": {
        "fr": "{deed} n'a pas de niveau de loyer : elle n'appartient à personne. Choisissez une propriété "
              "possédée.",
        "en": "{deed} has no rent level: nobody owns it. Choose an owned property.",
        "uk": "{deed} не має рівня оренди: вона нікому не належить. Оберіть власність, яка має власника.",
    },
    "event_no_effect": {
        "fr": "Cet événement ne changerait aucun niveau de loyer ici : choisissez autre chose.",
        "en": "This Event would change no rent level here: choose another.",
        "uk": "Ця подія тут не змінить жодного рівня оренди: оберіть інше.",
    },
    "swap_unowned": {
        "fr": "{deed} n'appartient à personne : échangez contre la propriété d'un adversaire.",
        "en": "{deed} belongs to nobody: swap with an opponent's property.",
        "uk": "{deed} нікому не належить: обміняйте на власність суперника.",
    },
    "swap_own": {
        "fr": "{deed} est déjà à {player} : échangez contre la propriété d'un adversaire.",
        "en": "{deed} is already {player}'s: swap with an opponent's property.",
        "uk": "{deed} вже належить гравцю {player}: обміняйте на власність суперника.",
    },
    "event_opponent_self": {
        "fr": "{player} choisit un adversaire, pas lui-même.",
        "en": "{player} chooses an opponent, not themselves.",
        "uk": "{player} обирає суперника, а не себе.",
    },
    "event_card_mismatch": {
        "fr": "Cette carte Événement ne correspond pas à cette opération.",
        "en": "This Event card does not match this operation.",
        "uk": "Ця картка події не відповідає цій операції.",
    },
    "unknown_event_card": {
        "fr": "Carte Événement inconnue dans cette édition.",
        "en": "Unknown Event card in this edition.",
        "uk": "Невідома картка події в цьому виданні.",
    },
    "unknown_event_action": {
        "fr": "Effet d'Événement inconnu.",
        "en": "Unknown Event effect.",
        "uk": "Невідомий ефект події.",
    },
    "event_targets": {
        "fr": "Cette carte Événement demande d'autres choix (propriété, adversaire, couleur ou côté du plateau).",
        "en": "This Event card needs other choices (a property, an opponent, a colour group or a side of the "
              "board).",
        "uk": "Ця картка події потребує інших виборів (власність, суперник, група кольорів або бік поля).",
    },
    "bad_side": {
        "fr": "Le plateau a les côtés 1 à 4 (le côté 1 va du Départ à la Prison), pas {side}.",
        "en": "The board has sides 1 to 4 (side 1 runs from GO to Jail), not {side}.",
        "uk": "Поле має боки від 1 до 4 (бік 1 — від СТАРТУ до В'язниці), а не {side}.",
    },
    "unknown_group": {
        "fr": "Groupe de couleur inconnu : choisissez l'une des 8 couleurs du plateau.",
        "en": "Unknown colour group: choose one of the board's 8 colours.",
        "uk": "Невідома група кольорів: оберіть один із 8 кольорів поля.",
    },
    "bad_slump": {
        "fr": "Un krach du marché dure de 1 à 10 loyers, pas {payments}.",
        "en": "A market slump lasts 1 to 10 rent payments, not {payments}.",
        "uk": "Обвал ринку триває від 1 до 10 оплат оренди, а не {payments}.",
    },
    "location_not_yours": {
        "fr": "Après un Lieu au choix, choisissez une propriété libre ou l'une des vôtres, pas {deed} de "
              "{owner}.",
        "en": "After a Location, choose an unowned property or one of your own, not {owner}'s {deed}.",
        "uk": "Після Локації оберіть вільну власність або свою, а не {deed} гравця {owner}.",
    },
    "sell_not_in_debt": {
        "fr": "{player} ne doit rien : on ne revend une propriété à la Banque que pour couvrir un paiement.",
        "en": "{player} owes nothing: a property is sold back to the Bank only to cover a charge.",
        "uk": "{player} нічого не винен: власність продають Банку лише щоб покрити платіж.",
    },
    "sell_not_allowed": {
        "fr": "Dans cette partie, un paiement plus grand que l'argent liquide mène à la faillite : on ne revend "
              "rien à la Banque.",
        "en": "In this game a charge beyond the cash is a bankruptcy: nothing is sold back to the Bank.",
        "uk": "У цій грі платіж, більший за готівку, означає банкрутство: Банку нічого не продають.",
    },
    "rent_no_card": {
        "fr": "Le plateau Ultime n'a pas de cartes de loyer : ne choisissez pas de carte.",
        "en": "The Ultimate Banking board has no rent cards: leave the card out.",
        "uk": "На полі «Ультимативний банкінг» немає карток оренди: не обирайте картку.",
    },
    "property_owned": {
        "fr": "{deed} appartient déjà à {owner}.",
        "en": "{deed} already belongs to {owner}.",
        "uk": "{deed} вже належить гравцю {owner}.",
    },
    "bankruptcy_can_sell": {
        "fr": "{player} doit {owed} mais peut encore réunir {raisable} en revendant ses propriétés à la "
              "Banque : vendez-les au lieu de faire faillite.",
        "en": "{player} owes {owed} but could still raise {raisable} by selling properties back to the Bank: "
              "sell them instead of going bankrupt.",
        "uk": "{player} винен {owed}, але ще може зібрати {raisable}, продавши власності Банку: продайте їх "
              "замість банкрутства.",
    },
    "no_mortgages_here": {
        "fr": "Le plateau Ultime n'a pas d'hypothèques : rien à lever.",
        "en": "The Ultimate Banking board has no mortgages: nothing to lift.",
        "uk": "На полі «Ультимативний банкінг» немає застав: нічого викупати.",
    },
}
