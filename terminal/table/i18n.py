"""Translations of the terminal's texts: French (default), English and Ukrainian.

:func:`translate` turns a :class:`~terminal.table.view.Msg` into text. A message code missing from a language falls
back to the Msg's own English text (every refusal of the rules carries one), then to the English catalog.
Parameters are formatted with :meth:`str.format`; amounts arrive already formatted by the caller.

Params stay language-free. A word that must be translated travels as a catalog code in a param whose key
ends in ``_code`` (``deck_code="part_deck_chance"``, ``wanted_code="part_hotel"``): :func:`translate` puts
that code's text in the same language in its place (``{deck_code}`` -> "Chance" in French). The texts so
inserted (the ``part_*`` entries of :mod:`terminal.table.messages`) take no params themselves.
"""
from __future__ import annotations

import functools
import gettext
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from terminal.errors import GameError
from terminal.table.messages import MESSAGES
from terminal.table.view import Msg

LANGUAGES = ("fr", "en", "uk")

CATALOG: dict[str, dict[str, str]] = {
    # -- screens and titles ----------------------------------------------------------------------------
    "idle": {"fr": "Touchez une carte", "en": "Tap a card", "uk": "Прикладіть картку"},
    "player_context": {"fr": "{player} : que faire ?", "en": "{player}: what now?", "uk": "{player}: що робимо?"},
    "deed_context": {"fr": "{deed}", "en": "{deed}", "uk": "{deed}"},
    "deed_tap_player": {"fr": "Touchez la carte du joueur", "en": "Tap the player's card",
                        "uk": "Прикладіть картку гравця"},
    "confirm_title": {"fr": "Confirmer ?", "en": "Confirm?", "uk": "Підтвердити?"},
    "confirm_again": {"fr": "Touchez encore pour confirmer", "en": "Tap again to confirm",
                      "uk": "Прикладіть ще раз, щоб підтвердити"},
    "confirm_hint": {"fr": "Touchez à nouveau votre carte ou appuyez sur OK", "en": "Tap your card again or press OK",
                     "uk": "Прикладіть картку ще раз або натисніть OK"},
    "keypad_amount": {"fr": "Montant", "en": "Amount", "uk": "Сума"},
    "keypad_title": {"fr": "{player} · {purpose}", "en": "{player} · {purpose}", "uk": "{player} · {purpose}"},
    "keypad_dice": {"fr": "Total des dés (2 à 12)", "en": "Dice total (2 to 12)", "uk": "Сума кубиків (2–12)"},
    "keypad_bid": {"fr": "Enchère de {player}", "en": "{player}'s bid", "uk": "Ставка {player}"},
    "keypad_per_house": {"fr": "Prix par maison", "en": "Price per house", "uk": "Ціна за будинок"},
    "keypad_per_hotel": {"fr": "Prix par hôtel", "en": "Price per hotel", "uk": "Ціна за готель"},
    "keypad_pin": {"fr": "Code du banquier", "en": "Banker PIN", "uk": "PIN банкіра"},
    "keypad_price": {"fr": "Prix adjugé", "en": "Auction price", "uk": "Ціна з аукціону"},
    "choose_deed": {"fr": "Choisissez un titre", "en": "Choose a title deed", "uk": "Виберіть картку власності"},
    "choose_card": {"fr": "Quelle carte ?", "en": "Which card?", "uk": "Яка картка?"},
    "choose_payee": {"fr": "À qui ? Touchez sa carte ou choisissez la Banque",
                     "en": "To whom? Tap their card or choose the Bank",
                     "uk": "Кому? Прикладіть картку або виберіть Банк"},
    "choose_partner": {"fr": "Avec qui ? Touchez sa carte", "en": "With whom? Tap their card",
                       "uk": "З ким? Прикладіть картку"},
    "auction_title": {"fr": "Enchères : {deed}", "en": "Auction: {deed}", "uk": "Аукціон: {deed}"},
    "auction_hint": {"fr": "Chaque enchérisseur touche sa carte puis tape son prix ; OK adjuge",
                     "en": "Each bidder taps their card and types a price; OK closes",
                     "uk": "Учасник прикладає картку й вводить ціну; OK завершує"},
    "trade_title": {"fr": "Échange {a} ↔ {b}", "en": "Trade {a} ↔ {b}", "uk": "Обмін {a} ↔ {b}"},
    "trade_hint": {"fr": "Les deux joueurs touchent leur carte pour accepter",
                   "en": "Both players tap their cards to agree", "uk": "Обидва гравці прикладають картки"},
    "bankruptcy_title": {"fr": "Faillite de {player}", "en": "{player} goes bankrupt", "uk": "Банкрутство {player}"},
    "banker_title": {"fr": "Banquier", "en": "Banker", "uk": "Банкір"},
    "history_title": {"fr": "Historique", "en": "History", "uk": "Історія"},
    "game_over_title": {"fr": "Fin de la partie", "en": "Game over", "uk": "Гру завершено"},
    "new_game_title": {"fr": "Nouvelle partie", "en": "New game", "uk": "Нова гра"},
    "new_game_tap_players": {"fr": "Joueurs : touchez vos cartes dans l'ordre du jeu ({count} inscrits)",
                             "en": "Players: tap your cards in play order ({count} so far)",
                             "uk": "Гравці: прикладайте картки по черзі ({count} вже)"},
    "enrol_title": {"fr": "Enregistrer les cartes", "en": "Enrol cards", "uk": "Реєстрація карток"},
    "no_game": {"fr": "Aucune partie : le banquier en commence une", "en": "No game: the banker starts one",
                "uk": "Немає гри: банкір починає нову"},
    # -- options ----------------------------------------------------------------------------------------
    "opt_pass_go": {"fr": "Salaire (Départ)", "en": "GO salary", "uk": "Зарплата (Старт)"},
    "opt_income_tax": {"fr": "Impôts sur le revenu", "en": "Income tax", "uk": "Податок на прибуток"},
    "opt_luxury_tax": {"fr": "Taxe de luxe", "en": "Luxury tax", "uk": "Податок на розкіш"},
    "opt_chance": {"fr": "Carte Chance", "en": "Chance card", "uk": "Картка «Шанс»"},
    "opt_community_chest": {"fr": "Carte Caisse de communauté", "en": "Community Chest card",
                            "uk": "Картка «Громадська скарбниця»"},
    "opt_jail_fine": {"fr": "Amende de prison", "en": "Jail fine", "uk": "Штраф за в'язницю"},
    "opt_use_jail_card": {"fr": "Utiliser « libéré de prison »", "en": "Use Get Out of Jail Free",
                          "uk": "Використати «Звільнення з в'язниці»"},
    "opt_free_parking": {"fr": "Parc gratuit", "en": "Free Parking", "uk": "Безкоштовна стоянка"},
    "opt_pay_bank": {"fr": "Payer la Banque", "en": "Pay the Bank", "uk": "Сплатити Банку"},
    "opt_bank_pays": {"fr": "Recevoir de la Banque", "en": "Receive from the Bank", "uk": "Отримати від Банку"},
    "opt_transfer": {"fr": "Payer un montant", "en": "Pay an amount", "uk": "Сплатити суму"},
    "opt_pay_each_player": {"fr": "Payer chaque joueur", "en": "Pay each player", "uk": "Сплатити кожному гравцю"},
    "opt_collect_from_each_player": {"fr": "Recevoir de chaque joueur", "en": "Collect from each player",
                                     "uk": "Отримати від кожного гравця"},
    "opt_repairs": {"fr": "Réparations", "en": "Repairs", "uk": "Ремонт"},
    "opt_trade": {"fr": "Échanger", "en": "Trade", "uk": "Обмін"},
    "opt_my_deeds": {"fr": "Mes titres", "en": "My title deeds", "uk": "Мої картки власності"},
    "opt_any_deed": {"fr": "Choisir un titre", "en": "Pick a title deed", "uk": "Вибрати картку власності"},
    "opt_bankruptcy": {"fr": "Déclarer faillite", "en": "Declare bankruptcy", "uk": "Оголосити банкрутство"},
    "opt_buy": {"fr": "Acheter ({price})", "en": "Buy ({price})", "uk": "Купити ({price})"},
    "opt_decline": {"fr": "Refuser : enchères", "en": "Decline: auction", "uk": "Відмовитися: аукціон"},
    "opt_rent": {"fr": "Payer le loyer", "en": "Pay the rent", "uk": "Сплатити оренду"},
    "opt_rent_railroad_card": {"fr": "Carte : gare la plus proche (loyer double)",
                               "en": "Card: nearest railroad (twice the rent)",
                               "uk": "Картка: найближчий вокзал (подвійна оренда)"},
    "opt_rent_utility_card": {"fr": "Carte : compagnie la plus proche (10 × dés)",
                              "en": "Card: nearest utility (10 × dice)",
                              "uk": "Картка: найближча компанія (10 × кубики)"},
    "opt_build": {"fr": "Construire", "en": "Build", "uk": "Будувати"},
    "opt_build_price": {"fr": "Construire au prix d'enchère", "en": "Build at an auction price",
                        "uk": "Будувати за ціною аукціону"},
    "opt_sell_building": {"fr": "Vendre un bâtiment", "en": "Sell a building", "uk": "Продати будівлю"},
    "opt_sell_whole": {"fr": "Vendre tout le groupe", "en": "Sell the whole group", "uk": "Продати всю групу"},
    "opt_mortgage": {"fr": "Hypothéquer", "en": "Mortgage", "uk": "Заставити"},
    "opt_unmortgage": {"fr": "Lever l'hypothèque", "en": "Lift the mortgage", "uk": "Викупити заставу"},
    "opt_flat": {"fr": "Forfait ({amount})", "en": "Flat ({amount})", "uk": "Фіксовано ({amount})"},
    "opt_percent": {"fr": "10 % de la fortune ({amount})", "en": "10 % of worth ({amount})",
                    "uk": "10 % статків ({amount})"},
    "opt_bank": {"fr": "La Banque", "en": "The Bank", "uk": "Банк"},
    "opt_passed_go": {"fr": "Passé par Départ : salaire", "en": "Passed GO: salary", "uk": "Пройшов Старт: зарплата"},
    "opt_not_passed_go": {"fr": "Sans passer par Départ", "en": "Did not pass GO", "uk": "Не проходив Старт"},
    "opt_pay_fine": {"fr": "Payer l'amende ({amount})", "en": "Pay the fine ({amount})",
                     "uk": "Сплатити штраф ({amount})"},
    "opt_draw_chance": {"fr": "Tirer une carte Chance", "en": "Draw a Chance card", "uk": "Взяти картку «Шанс»"},
    "opt_undo": {"fr": "Défaire la dernière opération", "en": "Undo the last operation", "uk": "Відкотити останню дію"},
    "opt_adjust_give": {"fr": "Ajustement : la Banque donne", "en": "Adjustment: the Bank gives",
                        "uk": "Коригування: Банк дає"},
    "opt_adjust_take": {"fr": "Ajustement : la Banque reprend", "en": "Adjustment: the Bank takes",
                        "uk": "Коригування: Банк забирає"},
    "opt_end_game": {"fr": "Terminer la partie", "en": "End the game", "uk": "Завершити гру"},
    "opt_history": {"fr": "Historique", "en": "History", "uk": "Історія"},
    "opt_enrol": {"fr": "Enregistrer des cartes", "en": "Enrol cards", "uk": "Реєструвати картки"},
    "opt_new_game": {"fr": "Nouvelle partie", "en": "New game", "uk": "Нова гра"},
    "opt_language": {"fr": "Langue : {language}", "en": "Language: {language}", "uk": "Мова: {language}"},
    "opt_mute": {"fr": "Son : {state}", "en": "Sound: {state}", "uk": "Звук: {state}"},
    "opt_start": {"fr": "Commencer", "en": "Start", "uk": "Почати"},
    "opt_skip": {"fr": "Passer", "en": "Skip", "uk": "Пропустити"},
    "opt_done": {"fr": "Terminé", "en": "Done", "uk": "Готово"},
    "opt_close_auction": {"fr": "Adjuger", "en": "Close the auction", "uk": "Завершити аукціон"},
    "opt_trade_give_deed": {"fr": "{player} donne {deed}", "en": "{player} gives {deed}", "uk": "{player} дає {deed}"},
    "opt_trade_cash": {"fr": "{player} donne de l'argent ({amount})", "en": "{player} gives cash ({amount})",
                       "uk": "{player} дає гроші ({amount})"},
    "opt_trade_jail": {"fr": "{player} donne une carte prison ({count})", "en": "{player} gives a Jail card ({count})",
                       "uk": "{player} дає картку в'язниці ({count})"},
    "opt_lift_now": {"fr": "Lever tout de suite : {deed}", "en": "Lift now: {deed}", "uk": "Викупити зараз: {deed}"},
    "opt_edition": {"fr": "Édition : {value}", "en": "Edition: {value}", "uk": "Видання: {value}"},
    "opt_mode": {"fr": "Mode : {value}", "en": "Mode: {value}", "uk": "Режим: {value}"},
    "opt_minutes": {"fr": "Durée : {minutes} min", "en": "Length: {minutes} min", "uk": "Тривалість: {minutes} хв"},
    "opt_flag": {"fr": "{flag} : {value}", "en": "{flag}: {value}", "uk": "{flag}: {value}"},
    # -- purposes on the confirmation screen --------------------------------------------------------------
    "purpose_pass_go": {"fr": "Salaire de Départ", "en": "GO salary", "uk": "Зарплата"},
    "purpose_buy": {"fr": "Achat de {deed}", "en": "Buying {deed}", "uk": "Купівля {deed}"},
    "purpose_auction": {"fr": "{deed} adjugé", "en": "{deed} sold at auction", "uk": "{deed} з аукціону"},
    "purpose_pay_rent": {"fr": "Loyer de {deed}", "en": "Rent on {deed}", "uk": "Оренда {deed}"},
    "purpose_pay_tax": {"fr": "{tax}", "en": "{tax}", "uk": "{tax}"},
    "purpose_bank_pays": {"fr": "La Banque paie", "en": "The Bank pays", "uk": "Банк платить"},
    "purpose_pay_bank": {"fr": "Paiement à la Banque", "en": "Payment to the Bank", "uk": "Платіж Банку"},
    "purpose_pay_each_player": {"fr": "Paie chaque joueur", "en": "Pays each player", "uk": "Платить кожному"},
    "purpose_collect_from_each_player": {"fr": "Reçoit de chaque joueur", "en": "Collects from each player",
                                         "uk": "Отримує від кожного"},
    "purpose_repairs": {"fr": "Réparations", "en": "Repairs", "uk": "Ремонт"},
    "purpose_jail_fine": {"fr": "Amende de prison", "en": "Jail fine", "uk": "Штраф"},
    "purpose_gain_jail_card": {"fr": "Carte « libéré de prison »", "en": "Get Out of Jail Free card",
                               "uk": "Картка звільнення"},
    "purpose_use_jail_card": {"fr": "Sortie de prison avec la carte", "en": "Leaving jail with the card",
                              "uk": "Вихід з в'язниці за карткою"},
    "purpose_free_parking": {"fr": "Parc gratuit", "en": "Free Parking", "uk": "Безкоштовна стоянка"},
    "purpose_build": {"fr": "Construction sur {deed}", "en": "Building on {deed}", "uk": "Будівництво на {deed}"},
    "purpose_sell_building": {"fr": "Vente de bâtiment(s) sur {deed}", "en": "Selling building(s) on {deed}",
                              "uk": "Продаж будівель на {deed}"},
    "purpose_mortgage": {"fr": "Hypothèque de {deed}", "en": "Mortgaging {deed}", "uk": "Застава {deed}"},
    "purpose_unmortgage": {"fr": "Levée de l'hypothèque de {deed}", "en": "Lifting the mortgage on {deed}",
                           "uk": "Викуп застави {deed}"},
    "purpose_transfer": {"fr": "Paiement", "en": "Payment", "uk": "Платіж"},
    "purpose_trade": {"fr": "Échange", "en": "Trade", "uk": "Обмін"},
    "purpose_declare_bankruptcy": {"fr": "Faillite de {player}", "en": "{player}'s bankruptcy",
                                   "uk": "Банкрутство {player}"},
    "purpose_undo": {"fr": "Défaire : {what} ({who})", "en": "Undo: {what} ({who})", "uk": "Відкотити: {what} ({who})"},
    "purpose_undo_plain": {"fr": "Défaire : {what}", "en": "Undo: {what}", "uk": "Відкотити: {what}"},
    "undo_what_who": {"fr": "{what} ({who})", "en": "{what} ({who})", "uk": "{what} ({who})"},
    "purpose_end_game": {"fr": "Fin de la partie", "en": "End of the game", "uk": "Кінець гри"},
    "purpose_x_time_up": {"fr": "Fin de la partie (temps écoulé)", "en": "End of the game (time up)",
                          "uk": "Кінець гри (час вичерпано)"},
    # -- feedback -------------------------------------------------------------------------------------------
    "done": {"fr": "C'est fait. {detail}", "en": "Done. {detail}", "uk": "Готово. {detail}"},
    "cancelled": {"fr": "Annulé : rien n'a été fait.", "en": "Cancelled: nothing was done.",
                  "uk": "Скасовано: нічого не зроблено."},
    "done_what": {"fr": "C'est fait : {what}. {detail}", "en": "Done: {what}. {detail}",
                  "uk": "Готово: {what}. {detail}"},
    "did_undo": {"fr": "défait : {what}", "en": "undone: {what}", "uk": "відкочено: {what}"},
    "did_buy": {"fr": "{player} achète {deed} ({amount})", "en": "{player} buys {deed} ({amount})",
                "uk": "{player} купує {deed} ({amount})"},
    "did_auction": {"fr": "{player} remporte {deed} aux enchères ({amount})", "en": "{player} wins {deed} at auction "
                    "({amount})", "uk": "{player} виграє {deed} на аукціоні ({amount})"},
    "did_rent": {"fr": "{player} paie le loyer de {deed} à {owner} ({amount})",
                 "en": "{player} pays {owner} the rent on {deed} ({amount})",
                 "uk": "{player} сплачує {owner} оренду за {deed} ({amount})"},
    "did_build_house": {"fr": "maison construite sur {deed} ({n} maintenant, {amount})",
                        "en": "house built on {deed} ({n} now, {amount})",
                        "uk": "будинок збудовано на {deed} (тепер {n}, {amount})"},
    "did_build_hotel": {"fr": "hôtel construit sur {deed} ({amount})", "en": "hotel built on {deed} ({amount})",
                        "uk": "готель збудовано на {deed} ({amount})"},
    "did_sell_building": {"fr": "bâtiment(s) de {deed} revendu(s) à la Banque (+{amount})",
                          "en": "building(s) on {deed} sold back to the Bank (+{amount})",
                          "uk": "будівлі на {deed} продано Банку (+{amount})"},
    "did_mortgage": {"fr": "{deed} hypothéqué (+{amount})", "en": "{deed} mortgaged (+{amount})",
                     "uk": "{deed} заставлено (+{amount})"},
    "did_unmortgage": {"fr": "hypothèque de {deed} levée ({amount})", "en": "mortgage on {deed} lifted ({amount})",
                       "uk": "заставу {deed} викуплено ({amount})"},
    "did_trade": {"fr": "échange {a} ↔ {b} : {a} donne {a_gives} ; {b} donne {b_gives}",
                  "en": "trade {a} ↔ {b}: {a} gives {a_gives}; {b} gives {b_gives}",
                  "uk": "обмін {a} ↔ {b}: {a} дає {a_gives}; {b} дає {b_gives}"},
    "gives_nothing": {"fr": "rien", "en": "nothing", "uk": "нічого"},
    "gives_jail_cards": {"fr": "{n} carte(s) « libéré de prison »", "en": "{n} Get Out of Jail Free card(s)",
                         "uk": "карток звільнення: {n}"},
    "did_gain_jail_card": {"fr": "{player} garde une carte « libéré de prison »",
                           "en": "{player} keeps a Get Out of Jail Free card",
                           "uk": "{player} залишає картку звільнення з в'язниці"},
    "did_use_jail_card": {"fr": "{player} sort de prison avec sa carte", "en": "{player} leaves jail with the card",
                          "uk": "{player} виходить з в'язниці за карткою"},
    "did_owe": {"fr": "{player} doit {amount} à {creditor}", "en": "{player} owes {creditor} {amount}",
                "uk": "{player} винен {creditor} {amount}"},
    "did_with_debt": {"fr": "{what} ; {owes}", "en": "{what}; {owes}", "uk": "{what}; {owes}"},
    "did_bankruptcy": {"fr": "{player} est en faillite", "en": "{player} is bankrupt", "uk": "{player} — банкрут"},
    "did_receive": {"fr": "{player} reçoit {amount}", "en": "{player} receives {amount}",
                    "uk": "{player} отримує {amount}"},
    "did_pay": {"fr": "{player} paie {amount}", "en": "{player} pays {amount}", "uk": "{player} платить {amount}"},
    "did_transfer": {"fr": "{payer} paie {amount} à {payee}", "en": "{payer} pays {payee} {amount}",
                     "uk": "{payer} платить {payee} {amount}"},
    "name_entry_title": {"fr": "Nom du joueur {seat}", "en": "Player {seat}'s name", "uk": "Ім'я гравця {seat}"},
    "key_char": {"fr": "{char}", "en": "{char}", "uk": "{char}"},
    "key_space": {"fr": "espace", "en": "space", "uk": "пробіл"},
    "key_back": {"fr": "⌫", "en": "⌫", "uk": "⌫"},
    "key_cancel": {"fr": "Retour", "en": "Back", "uk": "Назад"},
    "key_ok": {"fr": "OK", "en": "OK", "uk": "OK"},
    "name_taken": {"fr": "{name} est déjà à la table : choisissez un autre nom.",
                   "en": "{name} is already at the table: choose another name.",
                   "uk": "{name} вже за столом: оберіть інше ім'я."},
    "name_reserved": {"fr": "« {name} » désigne la Banque : choisissez un autre nom.",
                      "en": "'{name}' is the Bank's: choose another name.",
                      "uk": "«{name}» — це Банк: оберіть інше ім'я."},
    "name_too_long": {"fr": "Un nom a {max} lettres au plus.", "en": "A name has {max} letters at most.",
                      "uk": "Ім'я має щонайбільше {max} літер."},
    "mode_hint_classic": {"fr": "Classique : on joue jusqu'à ce qu'il ne reste qu'un joueur.",
                          "en": "Classic: play until one player is left.",
                          "uk": "Класична: граємо, доки не залишиться один гравець."},
    "mode_hint_sans_frontieres": {"fr": "Sans frontières : la partie s'arrête à la première faillite ; le plus riche "
                                        "gagne.",
                                  "en": "Sans frontières: the game ends at the first bankruptcy; the richest wins.",
                                  "uk": "Без кордонів: гра закінчується на першому банкрутстві; перемагає "
                                        "найбагатший."},
    "mode_hint_quick": {"fr": "Rapide : 2 titres distribués à chacun, 3 maisons au plus, fin à la deuxième faillite.",
                        "en": "Quick: 2 deeds dealt to each, 3 houses at most, ends at the second bankruptcy.",
                        "uk": "Швидка: кожному 2 картки власності, до 3 будинків, кінець на другому банкрутстві."},
    "mode_hint_time_limit": {"fr": "Temps limité : 2 titres distribués à chacun ; à la fin du temps, le plus riche "
                                   "gagne.",
                             "en": "Time limit: 2 deeds dealt to each; when the time is up, the richest wins.",
                             "uk": "На час: кожному 2 картки власності; коли час вийде, перемагає найбагатший."},
    "game_resumed": {"fr": "Partie reprise là où elle s'était arrêtée.", "en": "Game resumed where it stopped.",
                     "uk": "Гру відновлено з місця зупинки."},
    "game_resumed_unclean": {"fr": "Partie reprise après un arrêt imprévu : tout ce qui a été confirmé est "
                                   "enregistré ; une opération pas encore confirmée est à refaire.",
                             "en": "Game resumed after an unexpected stop: everything confirmed is recorded; an "
                                   "operation not yet confirmed is to be done again.",
                             "uk": "Гру відновлено після раптової зупинки: усе підтверджене записано; "
                                   "непідтверджену дію треба повторити."},
    "timed_out": {"fr": "Délai dépassé : rien n'a été fait.", "en": "Timed out: nothing was done.",
                  "uk": "Час вийшов: нічого не зроблено."},
    "timeout_kept_trade": {"fr": "Toujours là ? L'échange est gardé tel quel : Annuler l'abandonne.",
                           "en": "Still there? The trade is kept as it was: Cancel drops it.",
                           "uk": "Ви ще тут? Обмін збережено: «Скасувати» його відкидає."},
    "timeout_kept_auction": {"fr": "Toujours là ? Les enchères sont gardées : Annuler les abandonne.",
                             "en": "Still there? The auction is kept as it was: Cancel drops it.",
                             "uk": "Ви ще тут? Аукціон збережено: «Скасувати» його відкидає."},
    "timed_out_dropped": {"fr": "Délai dépassé une seconde fois : abandonné, rien n'a été fait.",
                          "en": "Timed out a second time: dropped, nothing was done.",
                          "uk": "Час вийшов удруге: скасовано, нічого не зроблено."},
    "unknown_card": {"fr": "Carte inconnue : enregistrez-la depuis le menu du banquier.",
                     "en": "Unknown card: enrol it from the banker's menu.",
                     "uk": "Невідома картка: зареєструйте її в меню банкіра."},
    "wrong_card": {"fr": "Pas cette carte ici : il faut la carte de {expected}.",
                   "en": "Not that card here: this step needs {expected}'s card.",
                   "uk": "Не ця картка: тут потрібна картка гравця {expected}."},
    "part_card_ok": {"fr": "le bouton OK", "en": "the OK button", "uk": "кнопка OK"},
    "wrong_card_kind": {"fr": "Pas cette carte ici : il faut {expected_code}.",
                        "en": "Not that card here: this step needs {expected_code}.",
                        "uk": "Не ця картка: тут потрібна {expected_code}."},
    "deed_tap_buyer": {"fr": "À vendre {price} : l'acheteur touche sa carte", "en": "For sale {price}: the buyer taps "
                       "their card", "uk": "Продається за {price}: покупець прикладає картку"},
    "deed_rent_tap_payer": {"fr": "Loyer {rent} : le payeur touche sa carte", "en": "Rent {rent}: the payer taps "
                            "their card", "uk": "Оренда {rent}: платник прикладає картку"},
    "deed_rent_why_tap_payer": {"fr": "Loyer {rent} ({why}) : le payeur touche sa carte",
                                "en": "Rent {rent} ({why}): the payer taps their card",
                                "uk": "Оренда {rent} ({why}): платник прикладає картку"},
    "why_unmortgage": {"fr": "valeur de l'hypothèque {value} + 10 % d'intérêts {interest}",
                       "en": "mortgage value {value} + 10 % interest {interest}",
                       "uk": "сума застави {value} + 10 % відсотків {interest}"},
    "why_shortage_price": {"fr": "prix adjugé aux enchères de bâtiments (pénurie) : {price}",
                           "en": "price set at a building auction (housing shortage): {price}",
                           "uk": "ціна з аукціону будівель (дефіцит): {price}"},
    "why_percent_tax": {"fr": "10 % de la fortune de {player}", "en": "10 % of {player}'s worth",
                        "uk": "10 % статків гравця {player}"},
    "why_trade_interest": {"fr": "{player} reçoit {deed} hypothéqué : 10 % d'intérêts dus ({amount})",
                           "en": "{player} receives {deed} mortgaged: 10 % interest due ({amount})",
                           "uk": "{player} отримує закладену {deed}: 10 % відсотків ({amount})"},
    "why_trade_lifted": {"fr": "{player} lève tout de suite l'hypothèque de {deed} ({amount}, 10 % compris)",
                         "en": "{player} lifts the mortgage on {deed} at once ({amount}, 10 % included)",
                         "uk": "{player} одразу викуповує заставу {deed} ({amount}, з 10 %)"},
    "why_group": {"fr": "groupe complet : loyer double", "en": "whole colour group: double rent",
                  "uk": "уся група кольорів: подвійна оренда"},
    "why_houses": {"fr": "{n} maison(s)", "en": "{n} house(s)", "uk": "будинків: {n}"},
    "why_hotel": {"fr": "un hôtel", "en": "a hotel", "uk": "готель"},
    "why_railroads": {"fr": "{n} gare(s) possédée(s)", "en": "{n} railroad(s) held", "uk": "вокзалів: {n}"},
    "why_railroad_card": {"fr": "{n} gare(s), carte : loyer double", "en": "{n} railroad(s), card: twice the rent",
                          "uk": "вокзалів: {n}, картка: подвійна оренда"},
    "why_dice": {"fr": "{times} × {dice} aux dés", "en": "{times} × {dice} on the dice",
                 "uk": "{times} × {dice} на кубиках"},
    "opt_amount": {"fr": "{what} {amount}", "en": "{what} {amount}", "uk": "{what} {amount}"},
    "deck_card_amount": {"fr": "{amount} · {text}", "en": "{amount} · {text}", "uk": "{amount} · {text}"},
    "pays_owes": {"fr": "{player} paie {pays}, doit encore {owes}", "en": "{player} pays {pays}, owes {owes}",
                  "uk": "{player} платить {pays}, ще винен {owes}"},
    "pays_owes_more": {"fr": "{first} (et {count} autre(s) joueur(s) en dette)",
                       "en": "{first} (and {count} more player(s) in debt)",
                       "uk": "{first} (і ще гравців у борг: {count})"},
    "part_dice_then_payer": {"fr": "le total des dés, puis la carte du payeur",
                             "en": "the dice total, then the payer's card",
                             "uk": "суму кубиків, потім картку платника"},
    "part_card_buyer": {"fr": "la carte de l'acheteur (ou Refuser : enchères)",
                        "en": "the buyer's card (or Decline: auction)", "uk": "картку покупця (або аукціон)"},
    "part_card_payer": {"fr": "la carte du payeur (ou celle du propriétaire)",
                        "en": "the payer's card (or the owner's)", "uk": "картку платника (або власника)"},
    "need_creditor_card": {"fr": "la carte de {player}, le créancier", "en": "{player}'s card (the creditor)",
                           "uk": "картку гравця {player} (кредитора)"},
    "bankruptcy_creditor_taps": {"fr": "Faillite de {player} : {creditor}, touchez votre carte pour choisir",
                                 "en": "{player} goes bankrupt: {creditor}, tap your card to choose",
                                 "uk": "Банкрутство {player}: {creditor}, прикладіть картку, щоб вибрати"},
    "bankruptcy_creditor_chooses": {"fr": "{creditor} : lever des hypothèques tout de suite ?",
                                    "en": "{creditor}: lift any mortgage now?",
                                    "uk": "{creditor}: викупити заставу зараз?"},
    "bk_receives": {"fr": "{creditor} reçoit : {items}", "en": "{creditor} receives: {items}",
                    "uk": "{creditor} отримує: {items}"},
    "bk_deed_mortgaged": {"fr": "{deed} (hypothéqué : 10 % dus, {amount})", "en": "{deed} (mortgaged: 10 % due, "
                          "{amount})", "uk": "{deed} (у заставі: 10 % до сплати, {amount})"},
    "bk_deed_lifted": {"fr": "{deed} (hypothèque levée : {amount})", "en": "{deed} (mortgage lifted: {amount})",
                       "uk": "{deed} (заставу викуплено: {amount})"},
    "bk_jail_card": {"fr": "une carte « libéré de prison »", "en": "a Get Out of Jail Free card",
                     "uk": "картка «Звільнення з в'язниці»"},
    "bk_houses_on": {"fr": "{n} maison(s) sur {deed}", "en": "{n} house(s) on {deed}", "uk": "будинків: {n} на {deed}"},
    "bk_hotel_on": {"fr": "l'hôtel de {deed}", "en": "the hotel on {deed}", "uk": "готель на {deed}"},
    "bk_sold_back": {"fr": "Revendu à la Banque : {items}", "en": "Sold back to the Bank: {items}",
                     "uk": "Продано Банку: {items}"},
    "bk_debt_ends": {"fr": "Dette éteinte : {amount} dus à {creditor}", "en": "Debt ended: {amount} owed to {creditor}",
                     "uk": "Борг погашено: {amount} перед {creditor}"},
    "joined_list": {"fr": "{first}, {rest}", "en": "{first}, {rest}", "uk": "{first}, {rest}"},
    "owes_to": {"fr": "{amount} → {creditor}", "en": "{amount} → {creditor}", "uk": "{amount} → {creditor}"},
    "screen_needs": {"fr": "Cet écran attend {need}.", "en": "This screen needs {need}.",
                     "uk": "Цей екран чекає: {need}."},
    "need_card_or_ok": {"fr": "la carte de {player} ou OK", "en": "{player}'s card or OK",
                        "uk": "картку гравця {player} або OK"},
    "need_cards": {"fr": "les cartes de {players}", "en": "the cards of {players}", "uk": "картки гравців {players}"},
    "part_card_player_or_deed": {"fr": "la carte d'un joueur ou un titre de propriété",
                                 "en": "a player's card or a title deed", "uk": "картку гравця або картку власності"},
    "part_card_banker": {"fr": "la carte du banquier", "en": "the banker card", "uk": "картку банкіра"},
    "part_keypad": {"fr": "un nombre tapé sur le clavier, puis OK", "en": "a number typed on the keypad, then OK",
                    "uk": "число на клавіатурі, потім OK"},
    "part_card_enrol": {"fr": "la carte demandée en haut de l'écran", "en": "the card named at the top of the screen",
                        "uk": "картку, названу вгорі екрана"},
    "part_card_deed_or_banker": {"fr": "un titre de propriété ou la carte du banquier",
                                 "en": "a title deed or the banker card",
                                 "uk": "картка власності або картка банкіра"},
    "part_card_player": {"fr": "la carte d'un joueur", "en": "a player's card", "uk": "картка гравця"},
    "part_card_choice": {"fr": "un choix à l'écran", "en": "a choice on screen", "uk": "вибір на екрані"},
    "part_damaged": {"fr": "le banquier : restaurer une sauvegarde ou une nouvelle partie (paiements arrêtés)",
                     "en": "the banker: restore a backup or a new game (payments are stopped)",
                     "uk": "банкір: відновити резервну копію або нова гра (платежі зупинено)"},
    "part_card_payee": {"fr": "la carte du joueur payé", "en": "the card of the player who is paid",
                        "uk": "картка гравця, якому платять"},
    "part_card_deed": {"fr": "un titre de propriété", "en": "a title deed", "uk": "картка власності"},
    "part_card_bidder": {"fr": "la carte d'un enchérisseur", "en": "a bidder's card", "uk": "картка учасника аукціону"},
    "part_card_other_player": {"fr": "la carte de l'autre joueur", "en": "the other player's card",
                               "uk": "картка іншого гравця"},
    "part_card_trade_deed": {"fr": "un titre de l'un des deux joueurs, ou Terminé",
                             "en": "a title deed of either player, or Done",
                             "uk": "картка власності одного з гравців або «Готово»"},
    "card_not_in_game": {"fr": "Cette carte de joueur n'est pas dans la partie.",
                         "en": "This player card is not in the game.", "uk": "Ця картка гравця не в грі."},
    "bankrupt_card": {"fr": "{player} est en faillite : hors jeu.", "en": "{player} is bankrupt: out of the game.",
                      "uk": "{player} банкрут: поза грою."},
    "pay_self": {"fr": "Impossible de se payer soi-même ({player}) : choisissez un autre bénéficiaire.",
                 "en": "{player} cannot pay themselves: choose someone else.",
                 "uk": "Не можна платити собі ({player}): виберіть іншого одержувача."},
    "second_go": {"fr": "{player} a déjà reçu le salaire il y a {seconds} s. Confirmer encore ?",
                  "en": "{player} already collected GO salary {seconds} s ago. Confirm again?",
                  "uk": "{player} вже отримав зарплату {seconds} с тому. Підтвердити ще раз?"},
    "in_debt": {"fr": "{player} doit {owed}", "en": "{player} owes {owed}", "uk": "{player} винен {owed}"},
    "reader_lost": {"fr": "Lecteur de cartes en reconnexion…", "en": "Card reader reconnecting…",
                    "uk": "Зчитувач карток перепідключається…"},
    "needs_banker": {"fr": "Touchez la carte du banquier ou tapez le code", "en": "Tap the banker card or type the PIN",
                     "uk": "Прикладіть картку банкіра або введіть PIN"},
    "wrong_pin": {"fr": "Code incorrect.", "en": "Wrong PIN.", "uk": "Невірний PIN."},
    "wrong_pin_wait": {"fr": "Code incorrect. Trop d'essais : attendez {seconds} s avant de réessayer.",
                       "en": "Wrong PIN. Too many tries: wait {seconds} s before trying again.",
                       "uk": "Невірний PIN. Забагато спроб: зачекайте {seconds} с перед наступною спробою."},
    "pin_wait": {"fr": "Trop de codes incorrects : attendez {seconds} s avant de réessayer.",
                 "en": "Too many wrong PINs: wait {seconds} s before trying again.",
                 "uk": "Забагато невірних PIN: зачекайте {seconds} с перед наступною спробою."},
    "pin_try_now": {"fr": "Vous pouvez réessayer le code.", "en": "You may try the PIN again.",
                    "uk": "Можна знову ввести PIN."},
    "damaged_title": {"fr": "Fichier de partie endommagé", "en": "Damaged game file", "uk": "Файл гри пошкоджено"},
    "damaged_startup": {"fr": "Le fichier de cette partie est endommagé : elle n'a pas été reprise (le fichier est "
                              "gardé tel quel). Le banquier restaure une sauvegarde ou commence une nouvelle partie.",
                        "en": "This game's file is damaged: it was not resumed (the file is kept as it is). The "
                              "banker can restore a backup or start a new game.",
                        "uk": "Файл цієї гри пошкоджено: гру не відновлено (файл збережено як є). Банкір може "
                              "відновити резервну копію або почати нову гру."},
    "damaged_play": {"fr": "Le fichier de cette partie est endommagé : les paiements sont arrêtés ; le banquier "
                           "peut restaurer une sauvegarde ou commencer une nouvelle partie.",
                     "en": "This game's file is damaged: payments are stopped; the banker can restore a backup or "
                           "start a new game.",
                     "uk": "Файл цієї гри пошкоджено: платежі зупинено; банкір може відновити резервну копію або "
                           "почати нову гру."},
    "opt_restore_backup": {"fr": "Restaurer la sauvegarde", "en": "Restore the backup",
                           "uk": "Відновити копію"},
    "no_good_backup": {"fr": "Aucune sauvegarde valable", "en": "No good backup",
                       "uk": "Немає справної резервної копії"},
    "backup_restored": {"fr": "Sauvegarde {backup} restaurée : la partie continue. L'ancien fichier est gardé.",
                        "en": "Backup {backup} restored: the game goes on. The old file is kept.",
                        "uk": "Резервну копію {backup} відновлено: гра триває. Старий файл збережено."},
    "payments_stopped": {"fr": "Paiements arrêtés : le fichier de la partie est endommagé.",
                         "en": "Payments are stopped: the game's file is damaged.",
                         "uk": "Платежі зупинено: файл гри пошкоджено."},
    "no_bid": {"fr": "Aucune enchère : {deed} reste à la Banque.", "en": "No bid: {deed} stays with the Bank.",
               "uk": "Ставок немає: {deed} лишається в Банку."},
    "bid_recorded": {"fr": "{player} offre {amount}", "en": "{player} bids {amount}",
                     "uk": "{player} пропонує {amount}"},
    "nothing_to_pay": {"fr": "Rien à payer pour cette carte.", "en": "Nothing to pay for this card.",
                       "uk": "За цю картку нічого не платити."},
    "deed_unowned_now": {"fr": "{deed} n'appartient à personne : achat ou enchères.",
                         "en": "Nobody owns {deed}: buy it or auction it.",
                         "uk": "{deed} нічия: купити або на аукціон."},
    "game_created": {"fr": "Partie commencée : bonne chance !", "en": "Game started: good luck!",
                     "uk": "Гру розпочато: успіхів!"},
    "enrolled": {"fr": "Carte enregistrée : {role}", "en": "Card enrolled: {role}",
                 "uk": "Картку зареєстровано: {role}"},
    "need_two_players": {"fr": "Il faut au moins 2 joueurs.", "en": "At least 2 players are needed.",
                         "uk": "Потрібно щонайменше 2 гравці."},
    "too_many_players": {"fr": "8 joueurs au maximum.", "en": "8 players at most.", "uk": "Не більше 8 гравців."},
    "already_seated": {"fr": "Cette carte est déjà dans la partie.", "en": "This card is already in the game.",
                       "uk": "Ця картка вже в грі."},
    "amount_too_long": {"fr": "Montant trop grand.", "en": "Amount too large.", "uk": "Завелика сума."},
    "empty_amount": {"fr": "Tapez un montant.", "en": "Type an amount.", "uk": "Введіть суму."},
    "not_allowed_now": {"fr": "Impossible ici : {what}.", "en": "Not possible here: {what}.",
                        "uk": "Тут неможливо: {what}."},
    "option_unknown": {"fr": "Choix inconnu.", "en": "Unknown choice.", "uk": "Невідомий вибір."},
    # -- screen labels (host_ui) ----------------------------------------------------------------------------
    "ui_ok": {"fr": "OK", "en": "OK", "uk": "OK"},
    "ui_cancel": {"fr": "Annuler", "en": "Cancel", "uk": "Скасувати"},
    "ui_bank_stock": {"fr": "Banque : {houses} maisons · {hotels} hôtels",
                      "en": "Bank: {houses} houses · {hotels} hotels",
                      "uk": "Банк: {houses} будинків · {hotels} готелів"},
    "ui_pot": {"fr": "Parc gratuit : {amount}", "en": "Free Parking: {amount}", "uk": "Стоянка: {amount}"},
    "ui_owes": {"fr": "doit {amount} à {creditor}", "en": "owes {amount} to {creditor}",
                "uk": "винен {amount}: {creditor}"},
    "ui_bankrupt": {"fr": "En faillite", "en": "Bankrupt", "uk": "Банкрут"},
    "ui_bank_name": {"fr": "Banque", "en": "Bank", "uk": "Банк"},
    "ui_pot_name": {"fr": "Parc gratuit", "en": "Free Parking", "uk": "Стоянка"},
    "ui_owner": {"fr": "Propriétaire : {owner}", "en": "Owner: {owner}", "uk": "Власник: {owner}"},
    "ui_for_sale": {"fr": "À vendre par la Banque", "en": "For sale by the Bank", "uk": "Продає Банк"},
    "ui_rent_now": {"fr": "Loyer actuel : {amount}", "en": "Rent now: {amount}", "uk": "Оренда зараз: {amount}"},
    "ui_rent_dice": {"fr": "Loyer selon les dés", "en": "Rent by the dice", "uk": "Оренда за кубиками"},
    "ui_mortgaged": {"fr": "HYPOTHÉQUÉ", "en": "MORTGAGED", "uk": "У ЗАСТАВІ"},
    "ui_rent_bare": {"fr": "Loyer terrain nu", "en": "Rent", "uk": "Оренда"},
    "ui_rent_houses": {"fr": "Avec {n} maison(s)", "en": "With {n} house(s)", "uk": "З {n} будинк."},
    "ui_rent_hotel": {"fr": "Avec un hôtel", "en": "With a hotel", "uk": "З готелем"},
    "ui_railroads": {"fr": "{n} gare(s)", "en": "{n} railroad(s)", "uk": "{n} вокзал(и)"},
    "ui_utilities": {"fr": "{n} compagnie(s)", "en": "{n} utilit(y/ies)", "uk": "{n} компанія(ї)"},
    "ui_times_dice": {"fr": "{n} × dés", "en": "{n} × dice", "uk": "{n} × кубики"},
    "ui_price": {"fr": "Prix {amount}", "en": "Price {amount}", "uk": "Ціна {amount}"},
    "ui_mortgage_value": {"fr": "Hypothèque {amount}", "en": "Mortgage {amount}", "uk": "Застава {amount}"},
    "ui_house_cost": {"fr": "Maison {amount}", "en": "House {amount}", "uk": "Будинок {amount}"},
    "ui_tap_or_ok": {"fr": "{player} : touchez votre carte ou OK", "en": "{player}: tap your card or press OK",
                     "uk": "{player}: прикладіть картку або OK"},
    "ui_agreed": {"fr": "D'accord : {players}", "en": "Agreed: {players}", "uk": "Згодні: {players}"},
    "ui_best_bid": {"fr": "Meilleure offre", "en": "Best bid", "uk": "Найкраща ставка"},
    "ui_no_bid_yet": {"fr": "Aucune offre pour l'instant", "en": "No bid yet", "uk": "Ставок ще немає"},
    "ui_gives": {"fr": "{player} donne", "en": "{player} gives", "uk": "{player} дає"},
    "ui_balance_after": {"fr": "solde", "en": "balance", "uk": "баланс"},
    "ui_undone": {"fr": "défaite", "en": "undone", "uk": "відкочено"},
    "ui_undo_banker": {"fr": "Défaire (banquier)", "en": "Undo (banker)", "uk": "Відкотити (банкір)"},
    "ui_setup": {"fr": "Mise en place", "en": "Setup", "uk": "Початок гри"},
    "ui_undo_of": {"fr": "Opération {seq} défaite", "en": "Undo of entry {seq}",
                   "uk": "Відкат запису {seq}"},
    "ui_standings": {"fr": "Classement", "en": "Standings", "uk": "Підсумки"},
    "ui_cash": {"fr": "Argent", "en": "Cash", "uk": "Гроші"},
    "ui_property": {"fr": "Biens", "en": "Property", "uk": "Майно"},
    "ui_debts": {"fr": "Dettes", "en": "Debts", "uk": "Борги"},
    "ui_worth": {"fr": "Fortune", "en": "Worth", "uk": "Статки"},
    "ui_worth_chart": {"fr": "Fortune au fil de la partie", "en": "Worth over the game",
                       "uk": "Статки протягом гри"},
    "ui_players": {"fr": "Joueurs", "en": "Players", "uk": "Гравці"},
    "ui_reader": {"fr": "Lecteur : posez une carte ici", "en": "Reader: put a card here",
                  "uk": "Зчитувач: прикладіть картку"},
    "ui_cards": {"fr": "Cartes (cliquez ou glissez sur le lecteur)", "en": "Cards (click, or drag onto the reader)",
                 "uk": "Картки (клацніть або перетягніть на зчитувач)"},
    "ui_deck_each": {"fr": "{amount}/joueur", "en": "{amount}/player", "uk": "{amount}/гравця"},
    "ui_demo": {"fr": "Démo ×{speed} : {done}/{total}", "en": "Demo ×{speed}: {done}/{total}",
                "uk": "Демо ×{speed}: {done}/{total}"},
    "ui_keys": {"fr": "Entrée = OK · Échap = annuler · F1-F4 · 0-9", "en": "Enter = OK · Esc = cancel · F1-F4 · 0-9",
                "uk": "Enter = OK · Esc = скасувати · F1-F4 · 0-9"},
    "enrol_tap_banker": {"fr": "Touchez la carte du banquier", "en": "Tap the banker card",
                         "uk": "Прикладіть картку банкіра"},
    "enrol_tap_player": {"fr": "Touchez la carte du joueur {number}", "en": "Tap the card for player {number}",
                         "uk": "Прикладіть картку гравця {number}"},
    "enrol_tap_deed": {"fr": "Touchez l'autocollant de {name}", "en": "Tap the sticker on {name}",
                       "uk": "Прикладіть наліпку {name}"},
    "ui_yes": {"fr": "oui", "en": "yes", "uk": "так"},
    "ui_no": {"fr": "non", "en": "no", "uk": "ні"},
    "ui_on": {"fr": "activé", "en": "on", "uk": "увімкнено"},
    "ui_off": {"fr": "coupé", "en": "off", "uk": "вимкнено"},
    "ui_language_name": {"fr": "français", "en": "English", "uk": "українська"},
    "flag_double_rent_with_mortgaged_street": {"fr": "Loyer double malgré une hypothèque",
                                               "en": "Double rent despite a mortgage",
                                               "uk": "Подвійна оренда попри заставу"},
    "flag_interest_rounding": {"fr": "Arrondi des intérêts", "en": "Interest rounding", "uk": "Округлення відсотків"},
    "flag_income_tax_percent": {"fr": "Impôt : 10 % au choix", "en": "Income tax: 10 % option",
                                "uk": "Податок: варіант 10 %"},
    "flag_free_parking_jackpot": {"fr": "Cagnotte du Parc gratuit", "en": "Free Parking jackpot",
                                  "uk": "Джекпот стоянки"},
    "ui_rounding_up": {"fr": "au-dessus", "en": "up", "uk": "вгору"},
    "ui_rounding_down": {"fr": "au-dessous", "en": "down", "uk": "вниз"},
    "mode_classic": {"fr": "classique", "en": "classic", "uk": "класична"},
    "mode_sans_frontieres": {"fr": "sans frontières", "en": "sans frontières", "uk": "без кордонів"},
    "mode_quick": {"fr": "rapide", "en": "quick", "uk": "швидка"},
    "mode_time_limit": {"fr": "en temps limité", "en": "time limit", "uk": "на час"},
    "nothing_to_undo": {"fr": "Rien à défaire.", "en": "There is nothing to undo.", "uk": "Нічого відкочувати."},
}

CATALOG["catalog_missing"] = {
    "fr": "Le catalogue des textes « {language} » manque ({path}) : réinstallez Banquier.",
    "en": "The '{language}' text catalog is missing ({path}): reinstall Banquier.",
    "uk": "Каталог текстів «{language}» відсутній ({path}): перевстановіть Banquier."}

# The refusals of the rules and the enrolment messages (terminal/table/messages.py); entries above win.
CATALOG.update({code: entry for code, entry in MESSAGES.items() if code not in CATALOG})


class MissingCatalog(GameError, FileNotFoundError):
    """A language's compiled catalog (``locale/<lang>/LC_MESSAGES/banquier.mo``) is not installed."""

    code = "catalog_missing"


DOMAIN = "banquier"
#: The catalogs: ``<lang>/LC_MESSAGES/banquier.po`` and the compiled ``.mo`` beside it (package data).
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The id of a plural entry's plural form: the code followed by this (``msgid_plural`` in the ``.po``).
PLURAL_SUFFIX = "_plural"
#: The param that holds a plural entry's count.
COUNT = "n"


@functools.cache
def catalog(language: str) -> gettext.GNUTranslations:
    """The compiled catalog of ``language`` (one of :data:`LANGUAGES`), loaded once through :mod:`gettext`.

    Raises :class:`MissingCatalog` when it is not installed: a broken install, reported at start-up."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        found = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[language], fallback=False)
    except OSError as exc:
        raise MissingCatalog(
            f"The {language!r} text catalog is missing ({path}): reinstall Banquier (or, in a checkout, run "
            f"./dev.sh i18n to compile the catalogs).", params={"language": language, "path": str(path)}) from exc
    if not isinstance(found, gettext.GNUTranslations):
        raise MissingCatalog(f"The {language!r} text catalog ({path}) is not a gettext catalog: reinstall Banquier.",
                             params={"language": language, "path": str(path)})
    return found


def check_catalogs() -> None:
    """Load the catalog of every language: raises :class:`MissingCatalog` naming the first one missing."""
    for language in LANGUAGES:
        catalog(language)


def has_text(code: str, language: str = "en") -> bool:
    """Whether the catalog of ``language`` has an entry for ``code`` (a plural entry counts)."""
    return catalog(language).gettext(code) != code


def _template(code: str, language: str, count: int | None) -> str | None:
    """The catalog's text for ``code`` in ``language`` (the plural form for ``count`` when the entry has
    plural forms), or None when the language or the entry is missing."""
    if language not in LANGUAGES:
        return None
    found = catalog(language)
    if count is not None:
        plural = code + PLURAL_SUFFIX
        text = found.ngettext(code, plural, count)
        if text not in (code, plural):
            return text
    text = found.gettext(code)
    return None if text == code else text


def _count(params: Mapping[str, Any]) -> int | None:
    value = params.get(COUNT)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def translate(code: str, params: Mapping[str, Any] | None = None, language: str = "fr", english: str = "",
              prefer_english: bool = False) -> str:
    """The text of message ``code`` in ``language`` with ``params`` filled in.

    With ``prefer_english`` (a refusal's exact message), English shows ``english`` as it is. Otherwise the
    catalog is used, and fall back to ``english`` when it has no entry, then to the English catalog, then
    to the code itself. A plural entry takes the form for its count, the int param ``n``. A param whose key
    ends in ``_code`` holds a message id and is shown as that entry's text in ``language`` (see the module
    docstring). Never raises for a missing parameter: the placeholder stays.
    """
    if language == "en" and english and prefer_english:
        return english
    params = params or {}
    count = _count(params)
    template = _template(code, language, count)
    if template is None:
        if english:
            return english
        template = _template(code, "en", count) or code
    try:
        return template.format(**_resolve_codes(params, language))
    except (KeyError, IndexError, ValueError):
        return template


def _resolve_codes(params: Mapping[str, Any], language: str) -> Mapping[str, Any]:
    """``params`` with the value of every ``*_code`` key that names a catalog entry replaced by that entry's
    text in ``language`` (English if it has none), and every nested Msg by its text. Other values, and
    codes the catalog lacks, are kept."""
    if not any(key.endswith("_code") or hasattr(value, "code") for key, value in params.items()):
        return params
    resolved = dict(params)
    for key, value in params.items():
        if hasattr(value, "code") and hasattr(value, "params"):  # a nested Msg
            resolved[key] = text(value, language)
        elif key.endswith("_code") and isinstance(value, str) and has_text(value):
            resolved[key] = _template(value, language, None) or _template(value, "en", None) or value
    return resolved


def text(msg: Msg | None, language: str = "fr") -> str:
    """Translate a :class:`terminal.table.view.Msg`."""
    if msg is None:
        return ""
    return translate(msg.code, msg.params, language, msg.english, getattr(msg, "exact", False))
